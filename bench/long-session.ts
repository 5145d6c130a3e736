/**
 * A never-compacted coding session of N entries (default 1,000,000; thousands of distinct paths) in
 * a SQLite file, opened with a real model's window and driven for a few hundred turns the way an
 * agent does (prepare → model call → recordStep with the usage a provider would report, counted
 * here with the o200k tokenizer): does every request fit the window, how often does it compact,
 * and does any compaction fail?
 *
 *   npx tsx bench/long-session.ts [entries] [turns]
 *
 * Builds a multi-GB file in a temporary folder (removed after). Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAIChatMessage } from '../src/context/serialize/openai.js';
import { syntheticSession } from '../src/demo/synthetic.js';
import { buildMessageEntry } from '../src/model/build.js';
import type { MessageEntry } from '../src/model/entry.js';
import { openSession } from '../src/session/index.js';
import { afterAppend } from '../src/session/state.js';
import { sqliteStore } from '../src/store/sqlite.js';
import { tokenizerCount } from '../src/tokens/budget-count.js';
import { heuristicEstimator } from '../src/tokens/estimator.js';

const entries = Number(process.argv[2] ?? 1_000_000);
const turns = Number(process.argv[3] ?? 300);
const WINDOW = 200_000;
const shape = { paths: 3_000, readLines: [3, 12] as [number, number] };

const dir = mkdtempSync(join(tmpdir(), 'condense-long-'));
const path = join(dir, 'long.db');
const count = tokenizerCount('o200k_base')!;
const plain = { disallowedSpecial: new Set<string>() };
const seen = new WeakMap<object, number>();
function size(messages: readonly OpenAIChatMessage[]): number {
  let total = 0;
  for (const m of messages) {
    let n = seen.get(m);
    if (n === undefined) {
      n =
        4 +
        (typeof m.content === 'string'
          ? count(m.content, plain)
          : count(JSON.stringify(m.content ?? ''), plain));
      for (const c of 'tool_calls' in m ? (m.tool_calls ?? []) : [])
        n += count(c.function.name, plain) + count(c.function.arguments, plain);
      seen.set(m, n);
    }
    total += n;
  }
  return total;
}

async function fill(): Promise<void> {
  const store = sqliteStore({ path });
  const estimator = heuristicEstimator();
  await openSession(store, 'long', { model: 'claude-sonnet-4-5' });
  let record = (await store.getSession('long'))!;
  let batch: MessageEntry[] = [];
  let parentId: string | null = null;
  let seq = 0;
  const flush = async () => {
    const last = batch.at(-1);
    if (!last) return;
    record = await store.append(batch, {
      sessionId: 'long',
      expectedVersion: record.version,
      headId: last.id,
      nextSeq: last.seq + 1,
      state: afterAppend(record.state, batch),
    });
    batch = [];
  };
  for (const message of syntheticSession({ messages: entries, seed: 11, ...shape })) {
    const entry = buildMessageEntry(message, { sessionId: 'long', seq, parentId, id: `e${seq}` }, estimator);
    batch.push(entry);
    parentId = entry.id;
    seq++;
    if (batch.length === 1_000) await flush();
  }
  await flush();
  await store.close();
}

const t0 = performance.now();
await fill();
const filled = performance.now() - t0;
const store = sqliteStore({ path });
const session = await openSession(store, 'long', {
  model: 'claude-sonnet-4-5',
  limits: { contextWindow: WINDOW },
});
const compactedAt: number[] = [];
const errors: string[] = [];
let largest = 0;
let firstMillis = 0;
const steps = syntheticSession({ messages: turns * 12, seed: 12, ...shape });
let turn = 0;
for (const message of steps) {
  if (turn >= turns) break;
  if (message.role === 'user') {
    await session.append(message);
    continue;
  }
  const t = performance.now();
  const prepared = await session.prepare({ format: 'openai' }).catch((e: Error) => e);
  if (prepared instanceof Error) {
    errors.push(`${turn}: ${prepared.name}: ${prepared.message}`);
    break;
  }
  if (turn === 0) firstMillis = performance.now() - t;
  if (prepared.compaction?.status === 'compacted') compactedAt.push(turn);
  const real = size(prepared.messages);
  largest = Math.max(largest, real);
  await session.recordStep({ message, usage: { prompt_tokens: real, completion_tokens: 50 } });
  turn++;
}
await store.close();
rmSync(dir, { recursive: true, force: true });
const gaps = compactedAt.slice(1).map((t, i) => t - compactedAt[i]!);
console.log(
  JSON.stringify({
    entries,
    window: WINDOW,
    fillSeconds: Math.round(filled / 1000),
    firstPrepareSeconds: Math.round(firstMillis / 100) / 10,
    turns: turn,
    compactions: compactedAt.length,
    minGap: gaps.length ? Math.min(...gaps) : null,
    largestRequest: largest,
    overWindow: largest > WINDOW,
    errors,
  }),
);
