/**
 * The many-workers load run: worker processes (bench/workers/worker.ts) append to shared sessions
 * at once, with compactions racing, then the stored logs are checked (bench/workers/check.ts).
 * The store comes from a StoreTarget, so the same run works on any store the factory knows.
 */

import { type Verdict, verify } from './workers/check.js';
import type { WorkerConfig } from './workers/protocol.js';
import { runWorkers } from './workers/spawn.js';
import { openStore, type StoreTarget } from './workers/stores.js';

export interface LoadOptions {
  workers: number;
  appends: number;
  sessions: number;
  prepareEvery: number;
  summarizeMillis: number;
  contextWindow: number;
  fillerRepeat: number;
  timeoutMs: number;
}

/** 8 processes × 1,000 appends over 2 sessions; a window that fills every ~60 appends. */
export const LOAD: LoadOptions = {
  workers: 8,
  appends: 1_000,
  sessions: 2,
  prepareEvery: 10,
  summarizeMillis: 50,
  contextWindow: 8_000,
  fillerRepeat: 8,
  // A hang, not a slow machine: eight Postgres writers took 33 s on one 2-core machine, over 60 s on another.
  timeoutMs: 300_000,
};

export interface LoadRow {
  store: string;
  workers: number;
  appendsPerWorker: number;
  sessions: number;
  seconds: number;
  appendsPerSecond: number;
  p50Millis: number;
  p99Millis: number;
  maxMillis: number;
  verdict: Verdict;
}

export function workerConfigs(opts: LoadOptions, prefix = 'shared'): WorkerConfig[] {
  const sessions = Array.from({ length: opts.sessions }, (_, i) => `${prefix}-${i}`);
  return Array.from({ length: opts.workers }, (_, worker) => ({
    worker,
    sessions,
    appends: opts.appends,
    prepareEvery: opts.prepareEvery,
    summarizeMillis: opts.summarizeMillis,
    contextWindow: opts.contextWindow,
    fillerRepeat: opts.fillerRepeat,
  }));
}

export async function loadRun(target: StoreTarget, opts: LoadOptions = LOAD): Promise<LoadRow> {
  // Migrated once here, so the workers' first writes do not race a schema creation.
  await (await openStore(target.spec)).close();
  const configs = workerConfigs(opts);
  const reports = await runWorkers(target.spec, configs, opts.timeoutMs);
  const store = await openStore(target.spec);
  const verdict = await verify(store, configs, reports).finally(() => store.close());
  const latencies = reports.flatMap((r) => r.latenciesMicros).sort((a, b) => a - b);
  const at = (p: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0) / 1000;
  const seconds =
    (Math.max(...reports.map((r) => r.endedAt)) - Math.min(...reports.map((r) => r.startedAt))) / 1000;
  return {
    store: target.kind,
    workers: opts.workers,
    appendsPerWorker: opts.appends,
    sessions: opts.sessions,
    seconds,
    appendsPerSecond: Math.round(latencies.length / seconds),
    p50Millis: at(0.5),
    p99Millis: at(0.99),
    maxMillis: (latencies.at(-1) ?? 0) / 1000,
    verdict,
  };
}
