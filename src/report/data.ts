import type { Entry } from '../model/entry.js';
import { type ContextBreakdown, contextBreakdown } from '../session/breakdown.js';
import type { StoredEvent } from '../store/events.js';
import type { SessionSummary } from '../store/store.js';
import type { TokenEstimate } from '../tokens/index.js';
import type { CompactionView } from './compactions.js';
import { type ForkNode, forkTree, type LedgerView, ledgerView } from './family.js';
import type { Replayed, Series } from './replay.js';

/**
 * Everything the page shows, as plain JSON embedded in it. Long lists are columns (one array per
 * field) and repeated strings are numbered once, so a 100,000-entry session stays a few MB; the
 * page renders pages of them on demand.
 */
export interface ReportData {
  generatedAt: number;
  session: {
    id: string;
    model: string;
    store: string;
    entries: number;
    createdAt: number;
    updatedAt: number;
  };
  budget: { window: number; usable: number | null; trigger: number | null; windowFallback: boolean };
  /** The session's own figure for the next prompt, and what it rests on. */
  next: { tokens: number; basis: string };
  /** `seq` and `at` as differences from the previous request (the first from 0): short numbers. */
  series: Omit<Series, 'reported'>;
  /** Per request: 1 reported by the provider, 0 estimated (a string of digits, one per request). */
  basis: string;
  /** How many requests' sizes the provider reported. */
  reported: number;
  compactions: PackedCompaction[];
  /** What fills the window now: the rows `condense stats` shows, adding up to the next prompt. */
  fill: ContextBreakdown;
  turns: TurnColumns;
  forks: ForkNode;
  ledger: LedgerView;
  /**
   * Every text that repeats (summary lines, quotes, detail lines, previews, tool lists) once; the
   * fields above that hold numbers in their place index this list. Recursive summaries repeat
   * most of the previous one, and details lists grow by a few items per compaction.
   */
  strings: string[];
}

/** A compaction with its texts as indices into `strings`; the summary as one index per line. */
export type PackedCompaction = Omit<CompactionView, 'summary' | 'quotes' | 'details'> & {
  summary: number[];
  quotes: { text: number; turn: number; seq: number | null }[];
  details: [string, number[]][];
};

/** The turn table as columns; `preview` and `tools` index the report's `strings`. */
export interface TurnColumns {
  seq: number[];
  last: number[];
  entries: number[];
  tokens: number[];
  at: number[];
  /** For a compaction's own turn the compaction's index, else -1. */
  pivot: number[];
  preview: number[];
  tools: number[];
  /** The compaction (index) whose summary replaced the turn, -1 if none did. */
  summarizedBy: number[];
  /** 1 when the turn is in the current view, wholly or in part. */
  inView: number[];
}

export interface ReportInput {
  /** The log, replayed (see replay.ts). */
  replayed: Replayed;
  /** The entries the current view is built from. */
  active: readonly Entry[];
  session: ReportData['session'];
  budget: ReportData['budget'];
  next: ReportData['next'];
  /** The session's estimate of the next prompt, as the breakdown apportions it. */
  estimate: TokenEstimate;
  overheadRaw: number;
  systemTokens: number;
  sessions: readonly SessionSummary[];
  /** The ledger's events, or null when the store keeps none. */
  events: readonly StoredEvent[] | null;
  now: number;
}

export function reportData(input: ReportInput): ReportData {
  const { series, compactions } = input.replayed;
  const { reported, ...columns } = series;
  const strings = new Strings();
  return {
    generatedAt: input.now,
    session: input.session,
    budget: input.budget,
    next: input.next,
    series: { ...columns, seq: deltas(columns.seq), at: deltas(columns.at) },
    basis: reported.map((r) => (r ? '1' : '0')).join(''),
    reported: reported.filter(Boolean).length,
    compactions: compactions.map((c) => packCompaction(c, strings)),
    fill: contextBreakdown({
      systemRaw: input.systemTokens,
      toolsRaw: Math.max(0, input.overheadRaw - input.systemTokens),
      entries: input.active,
      estimate: input.estimate,
      contextWindow: input.budget.window,
      usable: input.budget.usable,
      trigger: input.budget.trigger,
    }),
    turns: turnColumns(input.replayed, strings),
    forks: forkTree(input.sessions, input.session.id),
    ledger: ledgerView(input.events, input.replayed.quoted),
    strings: strings.list,
  };
}

/** Each number as its difference from the one before (the first from 0). */
export function deltas(values: readonly number[]): number[] {
  return values.map((v, i) => v - (i === 0 ? 0 : values[i - 1]!));
}

class Strings {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  of(s: string): number {
    let n = this.index.get(s);
    if (n === undefined) {
      n = this.list.length;
      this.list.push(s);
      this.index.set(s, n);
    }
    return n;
  }
}

function packCompaction(c: CompactionView, strings: Strings): PackedCompaction {
  return {
    ...c,
    summary: c.summary.split('\n').map((line) => strings.of(line)),
    quotes: c.quotes.map((q) => ({ ...q, text: strings.of(q.text) })),
    details: c.details.map(([key, lines]) => [key, lines.map((line) => strings.of(line))]),
  };
}

function turnColumns({ turns: rows, compactions, inView }: Replayed, strings: Strings): TurnColumns {
  const summarizedBy = rows.map(() => -1);
  compactions.forEach((c, k) => {
    for (const [a, b] of c.summarized.turns)
      for (let t = a; t <= b; t++) if (summarizedBy[t] === -1) summarizedBy[t] = k;
  });
  const compactionOf = new Map(compactions.map((c, k) => [c.id, k]));
  return {
    seq: rows.map((r) => r.firstSeq),
    last: rows.map((r) => r.lastSeq),
    entries: rows.map((r) => r.entries),
    tokens: rows.map((r) => r.tokens),
    at: deltas(rows.map((r) => r.at)),
    pivot: rows.map((r) => (r.kind === 'compaction' ? (compactionOf.get(r.id) ?? -1) : -1)),
    preview: rows.map((r) => strings.of(r.preview)),
    tools: rows.map((r) => strings.of(r.tools)),
    summarizedBy,
    inView,
  };
}
