import type { ModelMessage } from 'ai';
import { type Entry, isMessageEntry, type MessageEntry } from '../model/entry.js';
import { aiSdkBreakpoints } from './ai-sdk-breakpoints.js';
import { AnthropicBreakpoints, type RequestLayout, type TurnBreakpoints } from './cache-breakpoints.js';
import { assemblerFor, type ContextFormat, type ContextPayload } from './formats.js';
import { type CachedPiece, deepFreeze, entryMark, type Piece, pieceOf } from './pieces.js';
import type { AnthropicMessage } from './serialize/anthropic-types.js';
import type { Assembler } from './serialize/assembler.js';
import { continuingMessage } from './serialize/common.js';
import { TrackedFold } from './tracked-fold.js';
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
 * new fragments onto the previous request. Entries replaced in place (pruned parts, a completed
 * call, a reload) are rendered again and folded with only their neighbours (tracked-fold.ts).
 * Anything else (a pivot, another system prompt) refolds the cached fragments, re-rendering only
 * the entries that changed. The result is byte-identical to `renderContext` on the same entries.
 *
 * The message list handed out is the one kept: the next render extends it in place (copying a
 * 100,000-message list would cost more than the whole turn). Callers that keep or edit a request
 * copy it first; an edit of its length or last message is noticed and the next render starts over.
 *
 * Contract that makes the append path safe: passing the same array again means entries were only
 * appended to it. The session's Log keeps to this: every other change gives it a new array, and
 * leaves the previous one as it was, which is what a new array is compared with.
 */
export class IncrementalContext<F extends ContextFormat> {
  private readonly assembler: Assembler<unknown, unknown, ContextPayload<F>>;
  private readonly view: ResolvedView;
  private cache = new Map<string, CachedPiece>();
  private source: readonly Entry[] | null = null;
  /** Whether `source` was in seq order (else the fold's order is not the array's). */
  private sourceOrdered = false;
  private seen = 0;
  private last: Entry | undefined;
  private system: string | undefined;
  /** View messages other than the system prompt: the summary and every message shown. */
  private conversation = 0;
  private shows: (entry: Entry) => entry is MessageEntry = isMessageEntry;
  private hoisted: string[] = [];
  private bodyStarted = false;
  private fold!: TrackedFold;
  private rebuildCount = 0;
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

  /** Full rebuilds so far (a test reads it to tell them from the cheaper paths). */
  get rebuilds(): number {
    return this.rebuildCount;
  }

  private update(entries: readonly Entry[], system: string | undefined): void {
    const current = this.source !== null && system === this.system && this.untouched();
    const done =
      current &&
      (entries === this.source
        ? entries.length >= this.seen &&
          (this.seen === 0 || entries[this.seen - 1] === this.last) &&
          this.appendAll(entries)
        : this.patch(entries));
    if (!done) this.rebuild(entries, system);
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

  /**
   * Brings the request up to `entries`, a new array that holds the previous one's entries at the
   * same positions, some replaced by a version with the same id and seq (a prune, a completed
   * call, a reload), and maybe more appended. Only entries whose fragment changed are folded
   * again. False when only a rebuild will do.
   */
  private patch(entries: readonly Entry[]): boolean {
    const was = this.source!;
    if (!this.sourceOrdered || entries.length < this.seen) return false;
    const fragments = new Map<number, unknown>();
    for (let i = 0; i < this.seen; i++) {
      const before = was[i]!;
      const entry = entries[i]!;
      if (before === entry) continue;
      if (entry.id !== before.id || entry.seq !== before.seq || entry.kind !== before.kind) return false;
      // A pivot rewritten may move the view's start.
      if (entry.kind !== 'message') return false;
      if (!this.shows(entry)) continue;
      const cached = this.cache.get(entry.id);
      if (cached === undefined) return false;
      if (cached.entry === entry || cached.mark === entryMark(entry)) {
        cached.entry = entry;
        continue;
      }
      const next = this.pieceFor(entry);
      if (!samePlace(cached, next)) return false;
      next.slot = cached.slot;
      this.cache.set(entry.id, next);
      if (next.slot >= 0) fragments.set(next.slot, (next.piece as { fragment: unknown }).fragment);
    }
    if (fragments.size > 0) {
      if (!this.fold.replace(fragments)) return false;
      // The request changed before its end: breakpoints are placed afresh, as after a rebuild.
      this.generation++;
    }
    return this.appendAll(entries);
  }

  private rebuild(entries: readonly Entry[], system: string | undefined): void {
    // Nothing of a failed rebuild (a pivot whose kept entry is missing) may pass for current.
    this.source = null;
    this.rebuildCount++;
    const ordered = inSeqOrder(entries);
    this.sourceOrdered = ordered === entries;
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
      cached = this.pieceFor(entry);
    }
    into.set(entry.id, cached);
    if (cached.shown) this.conversation++;
    cached.slot = cached.piece === null ? -1 : this.add(cached.piece);
  }

  private pieceFor(entry: MessageEntry): CachedPiece {
    const message = viewMessage(entry.message, this.view);
    const piece = message === null ? null : pieceOf(message, this.assembler);
    return { entry, mark: entryMark(entry), shown: message !== null, piece, slot: -1 };
  }

  /**
   * Whether the view holds no conversation at all (no summary, no message shown): prepare() then
   * sends none, not even the user turn a format would insert to open one.
   */
  get viewEmpty(): boolean {
    return this.conversation === 0;
  }

  /** Folds a piece (its slot in the fold; -1 for a hoisted system text). */
  private add(piece: Piece): number {
    if ('system' in piece) {
      this.hoisted.push(piece.system);
      return -1;
    }
    // The first message of the body decides whether a "(continuing)" user turn goes first.
    if (this.assembler.leadingUser && !this.bodyStarted) {
      this.fold = new TrackedFold(this.assembler);
      if (!piece.user) this.fold.add(this.continuing());
    }
    this.bodyStarted = true;
    return this.fold.add(piece.fragment);
  }

  /** An empty body is sent as the continuing turn alone (formats that need a user turn first). */
  private emptyFold(): TrackedFold {
    const fold = new TrackedFold(this.assembler);
    if (this.assembler.leadingUser) fold.add(this.continuing());
    return fold;
  }

  private continuingFragment: unknown;
  private continuing(): unknown {
    this.continuingFragment ??= deepFreeze(this.assembler.fragment(continuingMessage()));
    return this.continuingFragment;
  }
}

/**
 * Whether an entry rendered again takes its old place in the fold: shown or not as before, and
 * a fragment where there was one (a hoisted system text or nothing would change the request's
 * layout), of the same role where the body starts.
 */
function samePlace(was: CachedPiece, now: CachedPiece): boolean {
  if (was.shown !== now.shown) return false;
  if (was.piece === null || now.piece === null) return was.piece === now.piece;
  if ('system' in was.piece || 'system' in now.piece) return false;
  return was.piece.user === now.piece.user;
}
