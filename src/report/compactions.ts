import { isMarkerOnly } from '../compact/turns.js';
import type { CompactionEntry, Entry } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import { findQuotes, quotePieces } from './quotes.js';
import { searchableText } from './turns.js';

/** Inclusive ranges of turn indices: a compaction's span is a run of turns, listed compactly. */
export type Ranges = [number, number][];

/** One compaction as the report shows it. */
export interface CompactionView {
  id: string;
  seq: number;
  at: number;
  auto: boolean;
  summarizer: string;
  model?: string;
  tokensBefore: number;
  tokensAfter: number;
  summary: string;
  /** Estimated tokens of the summary text. */
  summaryTokens: number;
  previousId: string | null;
  /** The message entries the summary stands for (the previous summary's own span aside). */
  summarized: {
    entries: number;
    tokens: number;
    firstSeq: number | null;
    lastSeq: number | null;
    turns: Ranges;
  };
  /** The message entries the view kept verbatim after the summary. */
  kept: { entries: number; tokens: number; firstSeq: number | null; lastSeq: number | null; turns: Ranges };
  /** Pieces of the summary found word for word in the span; turn -1: in the previous summary. */
  quotes: { text: string; turn: number; seq: number | null }[];
  /** How many candidate pieces were looked up (quotes.length of them were found). */
  pieces: number;
  /** The pivot's `details`, every field as a list of lines (nested objects as `a.b`). */
  details: [string, string[]][];
}

/**
 * Each compaction's real coverage, in one pass over a log in seq order: the span from where the
 * previous view started (its first kept entry, or after the previous pivot) through the pivot's
 * last summarized entry is what the summary replaced; what follows up to the pivot was kept. The
 * lineage's `getCoverage` answers the same per compaction by walking parent links (a session's
 * log is one line of them); this reads each span once, so a 100,000-entry log stays fast.
 */
export function compactionViews(log: readonly Entry[], turnOfEntry: Int32Array): CompactionView[] {
  const indexOf = new Map<string, number>();
  log.forEach((e, i) => {
    indexOf.set(e.id, i);
  });
  const views: CompactionView[] = [];
  let viewStart = 0;
  let previous: CompactionEntry | null = null;
  log.forEach((entry, self) => {
    if (entry.kind !== 'compaction') return;
    const { pivot } = entry;
    const through = indexOf.get(pivot.summarizedThroughId) ?? self - 1;
    const counted = (i: number) => {
      const e = log[i]!;
      return e.kind === 'message' && !isMarkerOnly(e) && e.id !== pivot.markerId;
    };
    const summarized = span(log, viewStart, through, counted);
    const kept = span(log, through + 1, self - 1, counted);
    const texts = previous ? [previous.pivot.summary] : [];
    const offset = texts.length;
    for (const i of summarized) {
      const e = log[i]!;
      if (e.kind === 'message') texts.push(searchableText(e.message));
    }
    const pieces = quotePieces(pivot.summary);
    const quotes = findQuotes(pieces, texts).map((q) => {
      const i = q.source < offset ? undefined : summarized[q.source - offset]!;
      return {
        text: q.text,
        turn: i === undefined ? -1 : turnOfEntry[i]!,
        seq: i === undefined ? null : log[i]!.seq,
      };
    });
    views.push({
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
      summarized: spanFigures(log, summarized, turnOfEntry),
      kept: spanFigures(log, kept, turnOfEntry),
      quotes,
      pieces: pieces.length,
      details: detailLines(pivot.details),
    });
    const firstKept = pivot.firstKeptId === null ? undefined : indexOf.get(pivot.firstKeptId);
    viewStart = firstKept ?? self + 1;
    previous = entry;
  });
  return views;
}

function span(log: readonly Entry[], from: number, to: number, counted: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = Math.max(0, from); i <= to && i < log.length; i++) if (counted(i)) out.push(i);
  return out;
}

function spanFigures(log: readonly Entry[], indices: number[], turnOfEntry: Int32Array) {
  let tokens = 0;
  for (const i of indices) tokens += log[i]!.tokens;
  return {
    entries: indices.length,
    tokens,
    firstSeq: indices.length > 0 ? log[indices[0]!]!.seq : null,
    lastSeq: indices.length > 0 ? log[indices.at(-1)!]!.seq : null,
    turns: ranges(indices.map((i) => turnOfEntry[i]!)),
  };
}

/** Sorted distinct numbers as inclusive runs: [3,4,5,9] → [[3,5],[9,9]]. */
export function ranges(values: readonly number[]): Ranges {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const out: Ranges = [];
  for (const v of sorted) {
    const last = out.at(-1);
    if (last && v === last[1] + 1) last[1] = v;
    else out.push([v, v]);
  }
  return out;
}

/**
 * A pivot's details as key → lines, whatever fields they hold: lists item by item, text as one
 * line, nested objects flattened to `parent.child` keys. New fields show without a change here.
 */
export function detailLines(
  details: Record<string, JsonValue | undefined>,
  prefix = '',
): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const [key, value] of Object.entries(details)) {
    if (value === undefined) continue;
    const name = prefix + key;
    if (Array.isArray(value)) out.push([name, value.map(line)]);
    else if (value !== null && typeof value === 'object') {
      const nested = detailLines(value, `${name}.`);
      out.push(...(nested.length > 0 ? nested : [[name, []] as [string, string[]]]));
    } else out.push([name, [line(value)]]);
  }
  return out;
}

function line(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
