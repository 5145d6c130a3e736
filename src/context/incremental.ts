import type { ModelMessage } from 'ai';
import { type Entry, isMessageEntry, type MessageEntry } from '../model/entry.js';
import { aiSdkBreakpoints } from './ai-sdk-breakpoints.js';
import { AnthropicBreakpoints, type RequestLayout, type TurnBreakpoints } from './cache-breakpoints.js';
import { assemblerFor, type ContextFormat, type ContextPayload } from './formats.js';
import { type CachedPiece, deepFreeze, entryMark, type Piece, pieceOf } from './pieces.js';
import type { AnthropicMessage } from './serialize/anthropic-types.js';
import type { Assembler, Fold } from './serialize/assembler.js';
import { continuingMessage } from './serialize/common.js';
import {
  headMessages,
  inSeqOrder,
  type ResolvedView,
  resolveView,
  type ViewOptions,
  viewMessage,
  viewWindow,
} from './view.js';

/**
 * A session's request in one format, kept from turn to turn: each entry's fragment is rendered
 * once and cached by entry id + prune mark, and a turn that only appended entries folds just the
 * new fragments onto the previous request. Anything else (a pivot, pruned parts, a reload, another
 * system prompt) refolds the cached fragments, re-rendering only the entries that changed. The
 * result is byte-identical to `renderContext` on the same entries.
 *
 * The message list handed out is the one kept: the next render extends it in place (copying a
 * 100,000-message list would cost more than the whole turn). Callers that keep or edit a request
 * copy it first; an edit of its length or last message is noticed and the next render starts over.
 *
 * Contract that makes the append path safe: passing the same array again means entries were only
 * appended to it. The session's Log keeps to this: every other change gives it a new array.
 */
export class IncrementalContext<F extends ContextFormat> {
  private readonly assembler: Assembler<unknown, unknown, ContextPayload<F>>;
  private readonly view: ResolvedView;
  private cache = new Map<string, CachedPiece>();
  private source: readonly Entry[] | null = null;
  private seen = 0;
  private last: Entry | undefined;
  private system: string | undefined;
  /** View messages other than the system prompt: the summary and every message shown. */
  private conversation = 0;
  private shows: (entry: Entry) => entry is MessageEntry = isMessageEntry;
  private hoisted: string[] = [];
  private bodyStarted = false;
  private fold!: Fold<unknown, unknown>;
  private handedOut: { length: number; last: unknown } = { length: 0, last: undefined };
  /** Rebuilds so far, and where the summary's items end: what cache breakpoints are placed by. */
  private generation = 0;
  private head: { items: number; last: unknown } = { items: 0, last: undefined };
  private readonly breakpoints: AnthropicBreakpoints | null;
  private readonly aiSdkMarks: TurnBreakpoints<ModelMessage> | null;

  /**
   * `cacheBreakpoints`: an `anthropic` request carries `cache_control` breakpoints
   * (cache-breakpoints.ts), 1-hour ones with `cacheTtl: '1h'`; so does an `ai-sdk` one bound for
   * an Anthropic model (`anthropicModel`), as `providerOptions.anthropic.cacheControl`.
   */
  constructor(
    readonly format: F,
    opts: Omit<ViewOptions, 'system'> = {},
    cache: { cacheBreakpoints?: boolean; cacheTtl?: '1h'; anthropicModel?: boolean } = {},
  ) {
    this.assembler = assemblerFor(format);
    this.view = resolveView(opts);
    const marks = cache.cacheBreakpoints === true;
    this.breakpoints = format === 'anthropic' && marks ? new AnthropicBreakpoints(cache.cacheTtl) : null;
    this.aiSdkMarks =
      format === 'ai-sdk' && marks && cache.anthropicModel ? aiSdkBreakpoints(cache.cacheTtl) : null;
  }

  /** The request for `entries` (a session's active window), as `renderContext` would build it. */
  render(entries: readonly Entry[], system?: string): ContextPayload<F> {
    this.update(entries, system);
    return this.assembler.finish(this.hoisted.slice(), this.fold.items);
  }

  /**
   * The same request in the shape a call takes: for `ai-sdk`, the hoisted system texts apart
   * (generateText's `system`) and the messages without them; other formats whole in `messages`.
   */
  renderCall(entries: readonly Entry[], system?: string): { system?: string; messages: ContextPayload<F> } {
    if (this.breakpoints) {
      this.update(entries, system);
      const payload = this.breakpoints.apply(this.fold.items as AnthropicMessage[], this.layout(system));
      return { messages: payload as ContextPayload<F> };
    }
    if (this.format !== 'ai-sdk') return { messages: this.render(entries, system) };
    this.update(entries, system);
    const items = this.fold.items as ModelMessage[];
    // The system texts go apart, so no breakpoint is placed among them.
    const marked = this.aiSdkMarks ? this.aiSdkMarks.apply(items, this.layout(system), 0) : items;
    const messages = marked as ContextPayload<F>;
    return this.hoisted.length > 0 ? { system: this.hoisted.join('\n\n'), messages } : { messages };
  }

  /** What the breakpoints are placed by. */
  private layout(system: string | undefined): RequestLayout {
    return {
      generation: this.generation,
      system: this.hoisted,
      systemPrompt: system !== undefined && system !== '',
      headItems: this.head.items,
      headLast: this.head.last,
      bodyEmpty: !this.bodyStarted,
    };
  }

  private update(entries: readonly Entry[], system: string | undefined): void {
    const appendedOnly =
      entries === this.source &&
      system === this.system &&
      entries.length >= this.seen &&
      (this.seen === 0 || entries[this.seen - 1] === this.last) &&
      this.untouched();
    if (!appendedOnly || !this.appendAll(entries)) this.rebuild(entries, system);
    this.source = entries;
    this.seen = entries.length;
    this.last = entries.at(-1);
    this.handedOut = { length: this.fold.items.length, last: this.fold.items.at(-1) };
  }

  /** Whether the list handed out last is as it was left (a caller may have pushed onto it). */
  private untouched(): boolean {
    const items = this.fold.items;
    return items.length === this.handedOut.length && items.at(-1) === this.handedOut.last;
  }

  /** Folds the entries appended since the last render; false when only a rebuild will do. */
  private appendAll(entries: readonly Entry[]): boolean {
    for (let i = this.seen; i < entries.length; i++) {
      const entry = entries[i]!;
      // A new pivot moves the view's start; entries out of order are sorted by a rebuild.
      if (entry.kind !== 'message' || (i > 0 && entry.seq <= entries[i - 1]!.seq)) return false;
      if (this.shows(entry)) this.addEntry(entry, this.cache);
    }
    return true;
  }

  private rebuild(entries: readonly Entry[], system: string | undefined): void {
    // Nothing of a failed rebuild (a pivot whose kept entry is missing) may pass for current.
    this.source = null;
    const ordered = inSeqOrder(entries);
    const window = viewWindow(ordered);
    this.hoisted = [];
    this.bodyStarted = false;
    this.fold = this.emptyFold();
    const head = headMessages({ ...this.view, system }, window.pivot);
    // The summary counts as conversation; the system prompt does not.
    this.conversation = head.length - (system === undefined || system === '' ? 0 : 1);
    for (const message of head) {
      const piece = pieceOf(message, this.assembler);
      if (piece !== null) this.add(piece);
    }
    this.generation++;
    const bodyHead = this.bodyStarted ? this.fold.items.length : 0;
    this.head = { items: bodyHead, last: this.fold.items[bodyHead - 1] };
    const cache = new Map<string, CachedPiece>();
    for (const entry of ordered) if (window.shows(entry)) this.addEntry(entry, cache);
    this.cache = cache;
    this.shows = window.shows;
    this.system = system;
  }

  /** Folds an entry's piece: the cached one when its id and mark are unchanged, else a new one. */
  private addEntry(entry: MessageEntry, into: Map<string, CachedPiece>): void {
    let cached = this.cache.get(entry.id);
    if (cached !== undefined && (cached.entry === entry || cached.mark === entryMark(entry))) {
      cached.entry = entry;
    } else {
      const message = viewMessage(entry.message, this.view);
      const piece = message === null ? null : pieceOf(message, this.assembler);
      cached = { entry, mark: entryMark(entry), shown: message !== null, piece };
    }
    into.set(entry.id, cached);
    if (cached.shown) this.conversation++;
    if (cached.piece !== null) this.add(cached.piece);
  }

  /**
   * Whether the view holds no conversation at all (no summary, no message shown): prepare() then
   * sends none, not even the user turn a format would insert to open one.
   */
  get viewEmpty(): boolean {
    return this.conversation === 0;
  }

  private add(piece: Piece): void {
    if ('system' in piece) {
      this.hoisted.push(piece.system);
      return;
    }
    // The first message of the body decides whether a "(continuing)" user turn goes first.
    if (this.assembler.leadingUser && !this.bodyStarted) {
      this.fold = this.assembler.fold();
      if (!piece.user) this.fold.add(this.continuing());
    }
    this.bodyStarted = true;
    const items = this.fold.items;
    const from = Math.max(0, items.length - 1);
    this.fold.add(piece.fragment);
    // Merged or renamed turns are new objects: frozen like the fragments they are made of.
    for (let i = from; i < items.length; i++) deepFreeze(items[i]);
  }

  /** An empty body is sent as the continuing turn alone (formats that need a user turn first). */
  private emptyFold(): Fold<unknown, unknown> {
    const fold = this.assembler.fold();
    if (this.assembler.leadingUser) fold.add(this.continuing());
    return fold;
  }

  private continuingFragment: unknown;
  private continuing(): unknown {
    this.continuingFragment ??= deepFreeze(this.assembler.fragment(continuingMessage()));
    return this.continuingFragment;
  }
}
