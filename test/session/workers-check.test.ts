/** The concurrency checks catch what they are there to catch (bench/workers/check*.ts). */
import { describe, expect, it } from 'vitest';
import { tallyWriters } from '../../bench/workers/check.js';
import { checkLog } from '../../bench/workers/check-log.js';
import type { WorkerConfig } from '../../bench/workers/protocol.js';
import type { CompactionEntry, Entry } from '../../src/model/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { turn, user } from './helpers.js';

/** A compacted session's log and record, as a sound run leaves them. */
async function compacted() {
  const store = memoryStore();
  const session = await openSession(store, 's', {
    model: 'm',
    limits: { contextWindow: 20_000, maxOutput: 2_000 },
    prune: false,
  });
  await session.append(turn('a request', 4, 3_000));
  await session.append(turn('latest', 2, 1_000, 'l'));
  await session.compact();
  await session.append(user('after'));
  return { entries: await store.loadFrom('s', 0), record: session.record };
}

describe('checkLog', () => {
  it('finds nothing wrong with a sound log', async () => {
    const { entries, record } = await compacted();
    expect(checkLog(entries, record)).toMatchObject({ problems: [], pivots: 1 });
  });

  it('reports a second pivot over the same window, a gap, a hidden message and a wrong figure', async () => {
    const { entries, record } = await compacted();
    const pivot = entries.find((e): e is CompactionEntry => e.kind === 'compaction')!;
    const twice: Entry = { ...pivot, id: 'again', seq: entries.length };
    const problems = (list: Entry[], r = record) => checkLog(list, r).problems.join('\n');
    expect(problems([...entries, twice], { ...record, nextSeq: entries.length + 1 })).toMatch(
      /follows null, not the latest pivot/,
    );
    expect(problems(entries.filter((e) => e.seq !== 2))).toMatch(/entry 2 has seq 3/);
    const kept = entries.findIndex((e) => e.id === pivot.pivot.firstKeptId);
    const skipping = { ...pivot, pivot: { ...pivot.pivot, firstKeptId: entries[kept + 1]!.id } };
    expect(problems(entries.map((e) => (e === pivot ? skipping : e)))).toMatch(
      new RegExp(`neither summarizes nor keeps seqs ${kept}$`, 'm'),
    );
    const off = { ...record, state: { ...record.state, activeTokens: record.state.activeTokens + 1 } };
    expect(problems(entries, off)).toMatch(/state.activeTokens is/);
  });
});

describe('tallyWriters', () => {
  it('counts lost, repeated and reordered messages, and forgives the appends that failed', () => {
    const configs = [0, 1].map((worker) => ({ worker, sessions: ['a', 'b'], appends: 4 }) as WorkerConfig);
    const at = (worker: number, n: number) => ({ session: n % 2 === 0 ? 'a' : 'b', worker, n });
    const found = [at(0, 0), at(0, 2), at(0, 1), at(0, 3), at(1, 2), at(1, 0), at(1, 0)];
    const reports = [{ worker: 1, failed: [1] }] as never;
    expect(tallyWriters(found, configs, reports)).toEqual({
      lost: 1, // worker 1's n = 3 (n = 1 failed, as its writer was told)
      duplicated: 1,
      outOfOrder: 2, // worker 1 wrote 0 before 2 into session a; the repeat of 0 is out of order too
      problems: [],
    });
    expect(tallyWriters([{ session: 'b', worker: 0, n: 0 }], configs, []).problems).toEqual([
      'w0#0 found in b, where it was never sent',
    ]);
  });
});
