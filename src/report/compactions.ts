import type { JsonValue } from '../model/json.js';

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
