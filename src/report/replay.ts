import { isMarkerOnly } from '../compact/turns.js';
import { startsTurn } from '../lineage/derive.js';
import type { CompactionEntry, Entry, MessageEntry } from '../model/entry.js';
import { isSummaryMessage, messageText } from '../model/message.js';
import { reportedUsage } from '../model/reported-usage.js';
import { emptySessionState, type SessionState } from '../model/session.js';
import { quotedEvents } from '../session/quote.js';
import { afterAppend, afterPivot, afterReplace, afterUsage, nextPromptEstimate } from '../session/state.js';
import type { Estimator } from '../tokens/estimator.js';
import { type CompactionView, detailLines, ranges } from './compactions.js';
import { findQuotes, quotePieces } from './quotes.js';
import { searchableText, shorten, type TurnRow } from './turns.js';

/**
 * One pass over a session's log in seq order, fed a page at a time, so a 100,000-entry log is
 * never held whole: what a report needs of each entry is kept (a few numbers; the searchable text
 * of the entries still in the view), the rest is dropped as the page is.
 *
 * It replays the running figures a live session keeps, so each request's estimate is the one the
 * session had just before sending it: entries count at their size then (a pruned tool output at
 * full size until the time of its prune mark, the placeholder after), each reported usage
 * calibrates what follows, each pivot resets the view to its summary and kept entries.
 */
export interface Series {
  /** Per request, in log order: the reply's seq, its time, the prompt tokens, reported or estimated. */
  seq: number[];
  at: number[];
  tokens: number[];
  reported: boolean[];
  /** Each compaction, before the request at index `x`. */
  compactions: { id: string; x: number }[];
  /** Each prune (the tool outputs marked at one time), before the request at index `x`. */
  prunes: PruneMark[];
}

export interface PruneMark {
  x: number;
  at: number;
  parts: number;
  /** Estimated tokens the placeholders saved (negative where they were longer than the outputs). */
  saved: number;
}

export interface ReplayOptions {
  model: string;
  /** Raw tokens of the system prompt and tool definitions the session sends. */
  overheadRaw: number;
  /** The session's estimator: measures a pruned output's size before its prune. */
  estimator: Estimator;
  /** Pegasus's plain local estimate (no calibration, no overhead). */
  local?: boolean;
  /** The first seq of the current view: turns from there on are "in view". */
  activeFromSeq?: number;
}

export interface Replayed {
  series: Series;
  compactions: CompactionView[];
  turns: TurnRow[];
  /** Per turn: 1 when it holds an entry of the current view. */
  inView: number[];
  /** Ledger event id → seq of the first entry quoting it. */
  quoted: Map<string, number>;
}

/** An entry of the current view as the replay keeps it. */
interface Held {
  index: number;
  id: string;
  seq: number;
  /** Its estimated tokens now (prunes applied so far). */
  tokens: number;
  /** A message the view shows: not a pivot, not a queued compaction request. */
  shown: boolean;
  turn: number;
  /** What the summary's quotes are looked for in (shown messages only). */
  text: string;
}

interface Prune {
  at: number;
  entries: { index: number; delta: number }[];
  parts: number;
}

/** An entry stand-in for the state functions: only its tokens count (its tool figures are 0). */
const sized = (tokens: number): Entry =>
  ({ kind: 'message', tokens, partTokens: [], message: { role: 'user', parts: [] } }) as unknown as Entry;

export class Replay {
  private state: SessionState = emptySessionState();
  private readonly series: Series = {
    seq: [],
    at: [],
    tokens: [],
    reported: [],
    compactions: [],
    prunes: [],
  };
  private readonly views: CompactionView[] = [];
  private readonly turns: TurnRow[] = [];
  private readonly inView: number[] = [];
  private readonly quoted = new Map<string, number>();
  private readonly indexOf = new Map<string, number>();
  /** The current view's entries, from where it starts (a pivot's first kept entry, or after it). */
  private held: Held[] = [];
  private readonly heldAt = new Map<number, Held>();
  private readonly pending = new Map<number, Prune>();
  private pendingTimes: number[] = [];
  private previousSummary: string | null = null;
  private previous: Entry | undefined;
  private tools = new Map<string, number>();
  private index = 0;

  constructor(private readonly o: ReplayOptions) {}

  add(entry: Entry): void {
    const index = this.index++;
    this.indexOf.set(entry.id, index);
    this.applyPrunesBefore(entry.createdAt);
    const turn = this.turnOf(entry);
    const full = this.registerPrunes(entry, index);
    const shown = entry.kind === 'message' && !isMarkerOnly(entry);
    const held: Held = {
      index,
      id: entry.id,
      seq: entry.seq,
      tokens: full,
      shown,
      turn,
      text: shown ? searchableText(entry.message) : '',
    };
    this.held.push(held);
    this.heldAt.set(index, held);
    if (entry.kind === 'compaction') {
      this.pivot(entry, index);
      return;
    }
    for (const ref of quotedEvents(entry.message))
      if (!this.quoted.has(ref.id)) this.quoted.set(ref.id, entry.seq);
    this.append(entry, full);
  }

  finish(): Replayed {
    this.applyPrunesBefore(Number.POSITIVE_INFINITY);
    this.closeTurn();
    return {
      series: this.series,
      compactions: this.views,
      turns: this.turns,
      inView: this.inView,
      quoted: this.quoted,
    };
  }

  /** A message: the request's point (before its reply is appended), then the running figures. */
  private append(entry: MessageEntry, full: number): void {
    const { model, overheadRaw, local } = this.o;
    const request = isRequest(entry);
    const before = request ? nextPromptEstimate(this.state, model, overheadRaw, local).tokens : 0;
    const logRaw = this.state.activeTokens;
    this.state = afterAppend(this.state, [full === entry.tokens ? entry : { ...entry, tokens: full }]);
    if (!request) return;
    const usage = reportedUsage(entry.message);
    if (usage) this.state = afterUsage(this.state, usage, model, { logRaw, overheadRaw }, entry.seq);
    const s = this.series;
    s.seq.push(entry.seq);
    s.at.push(entry.createdAt);
    s.tokens.push(usage ? usage.inputTotal : before);
    s.reported.push(usage !== undefined);
  }

  /** The entry's size when it was appended, and its prunes queued for their time. */
  private registerPrunes(entry: Entry, index: number): number {
    if (entry.kind !== 'message') return entry.tokens;
    let full = entry.tokens;
    entry.message.parts.forEach((part, p) => {
      if (part.type !== 'tool' || part.compactedAt === undefined) return;
      // Signed: a placeholder longer than a short output made the entry bigger.
      const delta = this.o.estimator.part(part) - (entry.partTokens[p] ?? 0);
      let prune = this.pending.get(part.compactedAt);
      if (!prune) {
        prune = { at: part.compactedAt, entries: [], parts: 0 };
        this.pending.set(part.compactedAt, prune);
        this.pendingTimes.push(part.compactedAt);
        this.pendingTimes.sort((a, b) => a - b);
      }
      prune.parts++;
      prune.entries.push({ index, delta });
      full += delta;
    });
    return full;
  }

  private applyPrunesBefore(time: number): void {
    while (this.pendingTimes.length > 0 && this.pendingTimes[0]! < time) {
      const prune = this.pending.get(this.pendingTimes.shift()!)!;
      this.pending.delete(prune.at);
      let saved = 0;
      for (const { index, delta } of prune.entries) {
        // Only what the view still holds shrinks the prompt (erase-mode prunes reach older entries).
        const held = this.heldAt.get(index);
        if (!held) continue;
        held.tokens -= delta;
        saved += delta;
        this.state = afterReplace(this.state, [sized(held.tokens + delta)], [sized(held.tokens)]);
      }
      this.series.prunes.push({ x: this.series.seq.length, at: prune.at, parts: prune.parts, saved });
    }
  }

  /**
   * A pivot: what it summarized is the view's span from where it started through the last
   * summarized entry, what it kept the rest up to the pivot (the lineage's coverage, read once
   * here instead of by walking parent links per compaction); then the view restarts.
   */
  private pivot(entry: CompactionEntry, self: number): void {
    const { pivot } = entry;
    const through = this.indexOf.get(pivot.summarizedThroughId) ?? self - 1;
    const counted = (h: Held) => h.shown && h.id !== pivot.markerId;
    const summarized = this.held.filter((h) => counted(h) && h.index <= through);
    const kept = this.held.filter((h) => counted(h) && h.index > through && h.index < self);
    const texts = this.previousSummary === null ? [] : [this.previousSummary];
    const offset = texts.length;
    for (const h of summarized) texts.push(h.text);
    const pieces = quotePieces(pivot.summary);
    const quotes = findQuotes(pieces, texts).map((q) => {
      const h = q.source < offset ? undefined : summarized[q.source - offset]!;
      return { text: q.text, turn: h ? h.turn : -1, seq: h ? h.seq : null };
    });
    this.views.push({
      id: entry.id,
      seq: entry.seq,
      at: entry.createdAt,
      auto: pivot.auto,
      summarizer: pivot.summarizer,
      ...(pivot.model ? { model: pivot.model } : {}),
      tokensBefore: pivot.tokensBefore,
      tokensAfter: pivot.tokensAfter,
      summary: pivot.summary,
      summaryTokens: entry.tokens,
      previousId: pivot.previousPivotId,
      summarized: figures(summarized),
      kept: figures(kept),
      quotes,
      pieces: pieces.length,
      details: detailLines(pivot.details),
    });
    const firstKept = pivot.firstKeptId === null ? undefined : this.indexOf.get(pivot.firstKeptId);
    const start = firstKept ?? self + 1;
    this.held = this.held.filter((h) => h.index >= start);
    this.heldAt.clear();
    for (const h of this.held) this.heldAt.set(h.index, h);
    const visible = this.held.filter((h) => h.index < self && counted(h)).map((h) => sized(h.tokens));
    const fromSeq = firstKept === undefined ? entry.seq : this.held[0]!.seq;
    this.state = afterPivot(this.state, entry, visible, fromSeq);
    this.series.compactions.push({ id: entry.id, x: this.series.seq.length });
    this.previousSummary = pivot.summary;
  }

  /** The turn this entry belongs to (the lineage's rule), opening a new one when it starts one. */
  private turnOf(entry: Entry): number {
    if (startsTurn(entry, this.previous)) {
      this.closeTurn();
      this.turns.push({
        id: entry.id,
        firstSeq: entry.seq,
        lastSeq: entry.seq,
        entries: 0,
        tokens: 0,
        at: entry.createdAt,
        kind: entry.kind === 'compaction' ? 'compaction' : 'turn',
        preview: entry.kind === 'compaction' ? shorten(entry.pivot.summary) : '',
        tools: '',
      });
      this.inView.push(0);
    }
    this.previous = entry;
    const t = this.turns.length - 1;
    const row = this.turns[t]!;
    row.lastSeq = entry.seq;
    row.entries++;
    row.tokens += entry.tokens;
    if (entry.seq >= (this.o.activeFromSeq ?? Number.POSITIVE_INFINITY)) this.inView[t] = 1;
    if (entry.kind === 'message' && !isMarkerOnly(entry)) {
      if (row.preview === '' || (entry.message.role === 'user' && row.entries === 1))
        row.preview = shorten(messageText(entry.message));
      for (const part of entry.message.parts)
        if (part.type === 'tool') this.tools.set(part.name, (this.tools.get(part.name) ?? 0) + 1);
    }
    return t;
  }

  private closeTurn(): void {
    const row = this.turns.at(-1);
    if (row)
      row.tools = [...this.tools]
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => (n > 1 ? `${name}×${n}` : name))
        .join(' ');
    this.tools = new Map();
  }
}

/** Replays a whole log held in memory (tests, small sessions). */
export function replayLog(log: Iterable<Entry>, options: ReplayOptions): Replayed {
  const replay = new Replay(options);
  for (const entry of log) replay.add(entry);
  return replay.finish();
}

/** An assistant reply to a request: not a summary message nor a filler condense wrote. */
function isRequest(entry: MessageEntry): boolean {
  const { message } = entry;
  return message.role === 'assistant' && !isSummaryMessage(message) && message.metadata?.synthetic !== true;
}

function figures(held: Held[]): CompactionView['summarized'] {
  let tokens = 0;
  for (const h of held) tokens += h.tokens;
  return {
    entries: held.length,
    tokens,
    firstSeq: held[0]?.seq ?? null,
    lastSeq: held.at(-1)?.seq ?? null,
    turns: ranges(held.map((h) => h.turn)),
  };
}
