/**
 * Benchmarks (not tests): per-turn cost at growing history sizes, per store, and compaction time.
 *   npm run bench            human-readable table
 *   npm run bench -- --json  JSON array of { name, store, messages, medianMicros }
 *   npm run bench -- --quick smaller sizes, for a smoke run
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticSession } from '../src/demo/synthetic.js';
import type { Message } from '../src/model/index.js';
import { openSession, type Session } from '../src/session/index.js';
import { memoryStore, sqliteStore } from '../src/store/index.js';
import type { Store } from '../src/store/store.js';

interface Result {
  name: string;
  store: string;
  messages: number;
  medianMicros: number;
}

const args = new Set(process.argv.slice(2));
const SIZES = args.has('--quick') ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const TURNS = 300;
const dir = mkdtempSync(join(tmpdir(), 'condense-bench-'));
const results: Result[] = [];

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
}

function makeStore(kind: string, tag: string): Store {
  return kind === 'memory' ? memoryStore() : sqliteStore({ path: join(dir, `${tag}.db`) });
}

/** A session with `size` messages of history; the window is large so nothing compacts while filling. */
async function filled(store: Store, size: number, id: string): Promise<Session> {
  const session = await openSession(store, id, {
    model: 'bench',
    limits: { contextWindow: 0 },
    prune: false,
  });
  let batch: Message[] = [];
  for (const m of syntheticSession({ messages: size, seed: 1 })) {
    batch.push(m);
    if (batch.length === 1_000) {
      await session.append(batch);
      batch = [];
    }
  }
  if (batch.length) await session.append(batch);
  return session;
}

/** Steps to replay per turn, from a different seed than the history. */
const steps = [...syntheticSession({ messages: TURNS * 2, seed: 99 })].filter((m) => m.role === 'assistant');

async function perTurn(kind: string, size: number): Promise<void> {
  const store = makeStore(kind, `turn-${size}`);
  const session = await filled(store, size, `turn-${size}`);
  const times: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await session.recordStep({
      message: steps[i % steps.length]!,
      usage: { prompt_tokens: 50_000 + i, completion_tokens: 200 },
    });
    session.estimate();
    times.push((performance.now() - t0) * 1000);
  }
  results.push({
    name: 'turn: append step + record usage + before-turn check',
    store: kind,
    messages: size,
    medianMicros: median(times),
  });
  await store.close();
}

async function perPrepare(kind: string, size: number): Promise<void> {
  const store = makeStore(kind, `prepare-${size}`);
  await filled(store, size, 'p');
  // Reopen as an agent would, with a real window: the first prepare compacts the long history once.
  const session = await openSession(store, 'p', { model: 'claude-sonnet-4-5' });
  await session.compact({});
  const times: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await session.recordStep({
      message: steps[i % steps.length]!,
      usage: { prompt_tokens: 20_000 + i, completion_tokens: 200 },
    });
    await session.prepare({ format: 'openai' });
    times.push((performance.now() - t0) * 1000);
  }
  results.push({
    name: 'turn with prepare(): prune check + context build',
    store: kind,
    messages: size,
    medianMicros: median(times),
  });
  await store.close();
}

async function compaction(kind: string, size: number): Promise<void> {
  if (size < 10_000) return;
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const store = makeStore(kind, `compact-${size}-${r}`);
    await filled(store, size, 'c');
    const session = await openSession(store, 'c', { model: 'claude-sonnet-4-5' });
    const t0 = performance.now();
    await session.compact({});
    runs.push((performance.now() - t0) * 1000);
    await store.close();
  }
  results.push({ name: 'compaction (extractive)', store: kind, messages: size, medianMicros: median(runs) });
}

// Warm up the JIT on a throwaway run, so the first figure is not a cold start.
await perTurn('memory', 1_000);
await perPrepare('memory', 1_000);
results.length = 0;

for (const kind of ['memory', 'sqlite']) {
  for (const size of SIZES) {
    await perTurn(kind, size);
    await perPrepare(kind, size);
    await compaction(kind, size);
    if (!args.has('--json')) process.stderr.write(`done: ${kind} ${size}\n`);
  }
}
rmSync(dir, { recursive: true, force: true });

if (args.has('--json')) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} else {
  const rows = results.map(
    (r) =>
      `${r.name.padEnd(56)} ${r.store.padEnd(7)} ${String(r.messages).padStart(7)}  ${String(r.medianMicros).padStart(10)} µs`,
  );
  process.stdout.write(
    `${'benchmark'.padEnd(56)} ${'store'.padEnd(7)} ${'messages'.padStart(7)}  ${'median'.padStart(10)}\n${rows.join('\n')}\n`,
  );
}
