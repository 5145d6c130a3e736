/**
 * One cold-open benchmark row, run in its own process so that its peak RSS is its own:
 *   tsx bench/cold-child.ts <db path> <session id> <turns>
 * Opens the never-compacted session with a real window, runs the first prepare() (which compacts
 * it), then `turns` turns; prints one JSON line.
 */
import { syntheticSession } from '../src/demo/synthetic.js';
import { openSession } from '../src/session/index.js';
import { sqliteStore } from '../src/store/sqlite.js';
import { countingStore } from './counting-store.js';

const [path, id, turnsArg] = process.argv.slice(2);
if (path === undefined || id === undefined) throw new Error('usage: cold-child.ts <db> <id> <turns>');
const turns = Number(turnsArg ?? 0);
const peakMB = () => Math.round(process.resourceUsage().maxRSS / 1024);

const { store, rows } = countingStore(sqliteStore({ path }));
const t0 = performance.now();
const session = await openSession(store, id, { model: 'claude-sonnet-4-5' });
const first = await session.prepare({ format: 'ai-sdk' });
const openMillis = performance.now() - t0;
const result = {
  openMillis: Math.round(openMillis),
  rowsRead: rows(),
  compacted: first.compaction !== null,
  openPeakMB: peakMB(),
  turns,
  turnMedianMicros: 0,
  peakMB: 0,
};
const steps = [...syntheticSession({ messages: turns * 3 + 10, seed: 99 })].filter(
  (m) => m.role === 'assistant',
);
const times: number[] = [];
for (let i = 0; i < turns; i++) {
  const t = performance.now();
  await session.recordStep({
    message: steps[i % steps.length]!,
    usage: { prompt_tokens: 40_000 + i * 50, completion_tokens: 200 },
  });
  await session.prepare({ format: 'ai-sdk' });
  times.push((performance.now() - t) * 1000);
}
times.sort((a, b) => a - b);
result.turnMedianMicros = Math.round(times[Math.floor(times.length / 2)] ?? 0);
result.peakMB = peakMB();
await store.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
