/**
 * The compaction rows, in a process of their own (see compactionSplit in bench/paths.ts):
 *   tsx bench/compaction-child.ts <memory|sqlite> <size> <runs> [sqlite template]
 * Each run opens a never-compacted session of `size` messages (a fresh memory store, or a fresh
 * copy of the template) and compacts it; prints one JSON line of the times, in microseconds.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { extractiveSummarizer } from '../src/compact/extractive.js';
import type { Summarizer } from '../src/compact/summarizer.js';
import { openSession } from '../src/session/index.js';
import { memoryStore } from '../src/store/index.js';
import { sqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { heuristicEstimator } from '../src/tokens/estimator.js';
import { fillStore } from './fill.js';

const [kind, sizeArg, runsArg, template] = process.argv.slice(2);
if ((kind !== 'memory' && kind !== 'sqlite') || (kind === 'sqlite' && template === undefined))
  throw new Error('usage: compaction-child.ts <memory|sqlite> <size> <runs> [sqlite template]');
const size = Number(sizeArg);
const runs = Number(runsArg);

/**
 * The extractive summarizer, timed: what of a compaction is the summary itself. A span it reads
 * a page at a time (Summarizer.readSpan) is timed as it is read and when it is summarized.
 */
function timed(inner: Summarizer, spent: { micros: number }): Summarizer {
  const time = <T>(work: () => T): T => {
    const t0 = performance.now();
    try {
      return work();
    } finally {
      spent.micros += (performance.now() - t0) * 1000;
    }
  };
  const timeAsync = async <T>(work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      spent.micros += (performance.now() - t0) * 1000;
    }
  };
  const readSpan = inner.readSpan?.bind(inner);
  return {
    name: inner.name,
    summarize: (request, signal) => timeAsync(() => inner.summarize(request, signal)),
    ...(readSpan && {
      readSpan(previous) {
        const summary = readSpan(previous);
        return {
          read: (entries) => time(() => summary.read(entries)),
          heldTokens: () => summary.heldTokens(),
          summarize: (request, signal) => timeAsync(() => summary.summarize(request, signal)),
        };
      },
    }),
  };
}

async function fresh(run: number): Promise<{ store: Store; dispose(): void }> {
  if (kind === 'memory') {
    const store = memoryStore();
    await fillStore(store, 's', size);
    return { store, dispose: () => {} };
  }
  const path = `${template}.run-${run}.db`;
  copyFileSync(template!, path);
  return { store: sqliteStore({ path }), dispose: () => rmSync(path, { force: true }) };
}

/** One compaction of a fresh copy of the session: its whole time and the summarizer's, in µs. */
async function compactOnce(run: number): Promise<[number, number]> {
  const { store, dispose } = await fresh(run);
  try {
    const spent = { micros: 0 };
    const t0 = performance.now();
    const session = await openSession(store, 's', {
      model: 'claude-sonnet-4-5',
      compaction: { summarizer: timed(extractiveSummarizer({ estimator: heuristicEstimator() }), spent) },
    });
    await session.compact({});
    return [(performance.now() - t0) * 1000, spent.micros];
  } finally {
    await store.close();
    dispose();
  }
}

// A throwaway compaction of a small session first, as the bench's own process warms up its JIT:
// the rows measure compaction, not compiling it.
const warmUp = memoryStore();
await fillStore(warmUp, 's', 1_000);
await (await openSession(warmUp, 's', { model: 'claude-sonnet-4-5' })).compact({});

const totals: number[] = [];
const summaries: number[] = [];
for (let run = 0; run < runs; run++) {
  const [total, summary] = await compactOnce(run);
  totals.push(total);
  summaries.push(summary);
}
process.stdout.write(`${JSON.stringify({ totals, summaries })}\n`);
