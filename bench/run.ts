/**
 * Benchmarks (not tests): per-turn cost by history and window size, compaction time, the AI SDK
 * `pruneMessages` reference, and cold opens of never-compacted sessions (each in its own process).
 *   npm run bench              markdown tables (what the README's Performance section shows)
 *   npm run bench -- --json    the same rows as JSON
 *   npm run bench -- --quick   smaller sizes, for a smoke run
 *   npm run bench -- --huge    also the 1,000,000-entry cold open (builds a ~4.5 GB SQLite file)
 *   npm run bench -- --stall   only the stall at the hard threshold, with and without background compaction
 *   npm run bench -- --workers only the many-workers load run (8 processes × 1,000 appends)
 *   npm run bench -- --report  only the HTML report of a 100,000-entry session
 *   npm run bench -- --paths   only the paths around the core turn: Postgres beside SQLite, the
 *                              AI SDK middleware, a whole compaction cycle, compaction by size
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type ColdRow, coldOpen } from './cold.js';
import { type LoadRow, loadRun } from './concurrency.js';
import { type HtmlReportRow, htmlReportBench, htmlReportTable } from './html-report.js';
import { type CycleRow, compactionCycle, compactionSplit, middlewareCalls } from './paths.js';
import { coldTable, cycleTable, loadTable, sideTable, turnTable } from './report.js';
import { type StallRow, stallBench, stallTable } from './stall.js';
import {
  checkTurn,
  compactedTurn,
  pruneMessagesCalls,
  Sessions,
  type StoreKind,
  sideBySide,
  type TurnRow,
  uncompactedTurn,
} from './turns.js';
import { BENCH_PG_URL, loadTargets } from './workers/stores.js';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const SIZES = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const WINDOWS = quick ? [1_000, 10_000] : [1_000, 10_000, 75_000];
const COLD = [quick ? 10_000 : 100_000, ...(args.has('--huge') ? [1_000_000] : [])];
const TURNS = 300;
// About 25 s at most: the summarizer and the model calls are simulated by waits of their length.
const STALL = {
  compactions: quick ? 5 : 16,
  summaryMillis: 200,
  jitterMillis: 50,
  stepMillis: 25,
  maxSeconds: 14,
};
const stallOnly = args.has('--stall');
const workersOnly = args.has('--workers');
const reportOnly = args.has('--report');
const pathsOnly = args.has('--paths');
const everything = !stallOnly && !workersOnly && !reportOnly && !pathsOnly;
const STORES: StoreKind[] = ['memory', 'sqlite'];
const dir = mkdtempSync(join(tmpdir(), 'condense-bench-'));
const pgUrl = everything || pathsOnly ? await reachablePostgres() : undefined;
const sessions = new Sessions(dir, pgUrl);
const MIDDLEWARE = quick ? [1_000, 2_000, 8_000] : [1_000, 2_000, 8_000, 10_000, 50_000];
const PG_SIZES = [1_000, 10_000];
const COMPACTIONS = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const progress = (what: string) => {
  if (!args.has('--json')) process.stderr.write(`done: ${what}\n`);
};

const turnRows: TurnRow[] = [];
const sideRows: TurnRow[] = [];
const middlewareRows: TurnRow[] = [];
const compactionRows: TurnRow[] = [];
const cycleRows: CycleRow[] = [];
const windowRows: TurnRow[] = [];
const coldRows: ColdRow[] = [];
let stallRows: StallRow[] = [];
const loadRows: LoadRow[] = [];
let reportRows: HtmlReportRow[] = [];
try {
  // Postgres beside SQLite first, in a heap no 100,000-entry phase has grown yet: both stores'
  // turns are timed alike, but a large heap's collections weigh on the dearer turn's figure.
  if ((everything || pathsOnly) && pgUrl !== undefined) await postgresBesideSqlite();
  if (everything) await sizes();
  if (everything || pathsOnly) await paths();
  if (everything || stallOnly) {
    stallRows = await stallBench(STALL);
    progress('stall');
  }
  if (everything || workersOnly) {
    for (const target of await loadTargets(dir)) {
      loadRows.push(await loadRun(target).finally(() => target.dispose()));
      progress(`workers ${target.kind}`);
    }
  }
  if (everything || reportOnly) {
    reportRows = await htmlReportBench(dir, quick ? 10_000 : 100_000);
    progress('report');
  }
} finally {
  await sessions.dispose();
  rmSync(dir, { recursive: true, force: true });
}

/** Postgres per turn beside SQLite per turn, the two alternating (see sideBySide). */
async function postgresBesideSqlite(): Promise<void> {
  await checkTurn(sessions, 'memory', 1_000, TURNS); // JIT warm-up, as sizes() does
  // A throwaway run of the same alternating turns warms up each store's own code (a driver, its
  // statements) in the pattern measured: warmed up by separate runs of each store instead, the
  // first rows measured, the 1,000-message ones, stayed the dearest (3.1x against 2.6x, here).
  await sideBySide(sessions, 1_000, TURNS);
  for (const size of PG_SIZES) {
    sideRows.push(...(await sideBySide(sessions, size, TURNS)));
    progress(`postgres ${size}`);
  }
}

/** The rows of the paths around the core turn, each beside what it is held to. */
async function paths(): Promise<void> {
  if (!everything && pgUrl === undefined) await checkTurn(sessions, 'memory', 1_000, TURNS); // JIT warm-up
  for (const size of MIDDLEWARE) {
    // 200 steady calls: after the first call takes a 50,000-message history in, the next few dozen
    // still pay for its garbage (0.6-5 ms each, then 0.4-0.5 ms), and half of 50 calls did.
    middlewareRows.push(...(await middlewareCalls(size, 200, size <= 10_000 ? 3 : 1)));
    progress(`middleware ${size}`);
  }
  for (const kind of STORES) {
    cycleRows.push(await compactionCycle(sessions, kind));
    progress(`cycle ${kind}`);
  }
  for (const kind of STORES) {
    for (const size of COMPACTIONS) compactionRows.push(...(await compactionSplit(sessions, kind, size, 3)));
    progress(`compaction ${kind}`);
  }
}

async function sizes(): Promise<void> {
  // Warm up the JIT on a throwaway run, so the first figure is not a cold start.
  await checkTurn(sessions, 'memory', 1_000, TURNS);
  await uncompactedTurn(sessions, 'memory', 1_000, TURNS);

  for (const kind of STORES) {
    for (const size of SIZES) {
      turnRows.push(await checkTurn(sessions, kind, size, TURNS));
      turnRows.push(await compactedTurn(sessions, kind, size, TURNS));
      progress(`${kind} ${size}`);
    }
  }
  for (const size of WINDOWS) {
    for (const kind of STORES) {
      const { row, history } = await uncompactedTurn(sessions, kind, size, TURNS);
      windowRows.push(row);
      if (kind === 'memory') windowRows.push(...pruneMessagesCalls(history, size, 100));
    }
    progress(`window ${size}`);
  }
  for (const size of COLD) {
    coldRows.push(await coldOpen(dir, size, 100));
    progress(`cold ${size}`);
  }
}

if (args.has('--json')) {
  const rows = {
    turns: turnRows,
    postgres: sideRows,
    middleware: middlewareRows,
    cycle: cycleRows,
    compaction: compactionRows,
    windows: windowRows,
    cold: coldRows,
    stall: stallRows,
    workers: loadRows,
    report: reportRows,
  };
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  const tables = [
    ...(everything || pathsOnly
      ? [
          ...(everything ? [turnTable(turnRows, 'msgs')] : []),
          ...(sideRows.length > 0 ? [sideTable(sideRows)] : []),
          turnTable(middlewareRows, 'msgs'),
          cycleTable(cycleRows),
          turnTable(compactionRows, 'msgs'),
        ]
      : []),
    ...(everything ? [turnTable(windowRows, 'entries'), coldTable(coldRows)] : []),
    ...(stallRows.length > 0 ? [stallTable(stallRows, STALL)] : []),
    ...(loadRows.length > 0 ? [loadTable(loadRows)] : []),
    ...(reportRows.length > 0 ? [htmlReportTable(reportRows)] : []),
  ];
  process.stdout.write(`${tables.join('\n\n')}\n`);
}

/** The Postgres server for the per-turn rows, if one answers (else those rows are left out). */
async function reachablePostgres(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return BENCH_PG_URL;
  } catch (error) {
    process.stderr.write(`no Postgres at ${BENCH_PG_URL} (${(error as Error).message}): no Postgres rows\n`);
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}
