import type { Entry } from '../model/entry.js';
import type { StoredEvent } from '../store/events.js';
import type { SessionSummary } from '../store/store.js';
import type { Estimator } from '../tokens/estimator.js';
import { type CompactionView, compactionViews } from './compactions.js';
import { type ForkNode, forkTree, type LedgerView, ledgerView, quotingEntries } from './family.js';
import { type WindowFill, windowFill } from './fill.js';
import { requestSeries, type Series } from './series.js';
import { turnTable } from './turns.js';

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
  series: Omit<Series, 'reported'>;
  /** Per request: 1 reported by the provider, 0 estimated (a string of digits, one per request). */
  basis: string;
  /** How many requests' sizes the provider reported. */
  reported: number;
  compactions: CompactionView[];
  fill: WindowFill;
  turns: TurnColumns;
  forks: ForkNode;
  ledger: LedgerView;
}

/** The turn table as columns; `preview` and `tools` index `strings`. */
export interface TurnColumns {
  id: string[];
  seq: number[];
  last: number[];
  entries: number[];
  tokens: number[];
  at: number[];
  /** 1 for a compaction's own turn. */
  pivot: number[];
  preview: number[];
  tools: number[];
  strings: string[];
  /** The compaction (index) whose summary replaced the turn, -1 if none did. */
  summarizedBy: number[];
  /** 1 when the turn is in the current view, wholly or in part. */
  inView: number[];
}

export interface ReportInput {
  /** The whole log, in seq order. */
  log: readonly Entry[];
  /** The entries the current view is built from. */
  active: readonly Entry[];
  session: ReportData['session'];
  budget: ReportData['budget'];
  next: ReportData['next'];
  estimator: Estimator;
  overheadRaw: number;
  systemTokens: number;
  local?: boolean;
  sessions: readonly SessionSummary[];
  /** The ledger's events, or null when the store keeps none. */
  events: readonly StoredEvent[] | null;
  now: number;
}

export function reportData(input: ReportInput): ReportData {
  const { log } = input;
  const series = requestSeries({
    log,
    model: input.session.model,
    overheadRaw: input.overheadRaw,
    estimator: input.estimator,
    local: input.local,
  });
  const table = turnTable(log);
  const compactions = compactionViews(log, table.turnOfEntry);
  const { reported, ...columns } = series;
  return {
    generatedAt: input.now,
    session: input.session,
    budget: input.budget,
    next: input.next,
    series: columns,
    basis: reported.map((r) => (r ? '1' : '0')).join(''),
    reported: reported.filter(Boolean).length,
    compactions,
    fill: windowFill({
      active: input.active,
      systemTokens: input.systemTokens,
      toolsTokens: Math.max(0, input.overheadRaw - input.systemTokens),
      estimate: input.next.tokens,
      window: input.budget.window,
      usable: input.budget.usable,
      trigger: input.budget.trigger,
    }),
    turns: turnColumns(table, compactions, log, input.active),
    forks: forkTree(input.sessions, input.session.id),
    ledger: ledgerView(input.events, quotingEntries(log)),
  };
}

function turnColumns(
  table: ReturnType<typeof turnTable>,
  compactions: CompactionView[],
  log: readonly Entry[],
  active: readonly Entry[],
): TurnColumns {
  const strings: string[] = [];
  const numbered = new Map<string, number>();
  const intern = (s: string) => {
    let n = numbered.get(s);
    if (n === undefined) {
      n = strings.length;
      strings.push(s);
      numbered.set(s, n);
    }
    return n;
  };
  const summarizedBy = table.rows.map(() => -1);
  compactions.forEach((c, k) => {
    for (const [a, b] of c.summarized.turns)
      for (let t = a; t <= b; t++) if (summarizedBy[t] === -1) summarizedBy[t] = k;
  });
  const inView = table.rows.map(() => 0);
  const firstActive = active[0]?.seq;
  if (firstActive !== undefined)
    log.forEach((e, i) => {
      if (e.seq >= firstActive) inView[table.turnOfEntry[i]!] = 1;
    });
  const rows = table.rows;
  return {
    id: rows.map((r) => r.id),
    seq: rows.map((r) => r.firstSeq),
    last: rows.map((r) => r.lastSeq),
    entries: rows.map((r) => r.entries),
    tokens: rows.map((r) => r.tokens),
    at: rows.map((r) => r.at),
    pivot: rows.map((r) => (r.kind === 'compaction' ? 1 : 0)),
    preview: rows.map((r) => intern(r.preview)),
    tools: rows.map((r) => intern(r.tools)),
    strings,
    summarizedBy,
    inView,
  };
}
