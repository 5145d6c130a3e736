/**
 * Real processes writing one SQLite file at once (the benchmark's harness at a smaller size):
 * every writer appends to shared sessions, records the results of its tool calls, and prunes and
 * compacts whenever prepare() finds a window over the limit, with a summarizer slow enough that
 * compactions race. Nothing may be lost, repeated,
 * reordered or thrown at a writer, and every overflow must be compacted exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOAD, loadRun } from '../../bench/concurrency.js';
import { postgresTarget, type StoreTarget, sqliteTarget } from '../../bench/workers/stores.js';
import { PG_URL, pgReachable } from '../store/pg-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'condense-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const postgres = await pgReachable();

describe.each([
  ['one SQLite file', true, () => sqliteTarget(dir)],
  ['one Postgres schema', postgres, () => postgresTarget(PG_URL)],
] as Array<[string, boolean, () => StoreTarget]>)(
  'many worker processes on %s',
  (_name, available, target) => {
    it.skipIf(!available)(
      '6 processes × 100 appends to one session, racing compactions: nothing lost or thrown',
      async () => {
        // One session: the harshest contention. Before writes were retried with backoff and
        // compactions counted what arrived while they ran, this run surfaced 7 to 12 errors.
        const store = target();
        const row = await loadRun(store, {
          ...LOAD,
          workers: 6,
          sessions: 1,
          appends: 100,
          prepareEvery: 4,
          summarizeMillis: 40,
          // Generous: on a loaded 2-core machine the Postgres run takes several times its 7 s.
          timeoutMs: 100_000,
        }).finally(() => store.dispose());
        const v = row.verdict;
        expect(v.errorSamples).toEqual([]);
        expect(v.problems).toEqual([]);
        expect({
          lost: v.lost,
          duplicated: v.duplicated,
          outOfOrder: v.outOfOrder,
          errors: v.errors,
        }).toEqual({
          lost: 0,
          duplicated: 0,
          outOfOrder: 0,
          errors: 0,
        });
        expect(v.stored).toBe(600);
        // The run did race: writes were retried, parts were replaced (tool results, pruning) while
        // others appended, and several workers compacted the same window.
        expect(v.conflicts).toBeGreaterThan(0);
        expect(v.rewrites).toBeGreaterThan(100);
        expect(v.raced).toBeGreaterThan(0);
        expect(v.pivots).toBeGreaterThan(5);
        expect(v.pivotsPerOverflow).toEqual([1, 1]);
      },
      120_000,
    );
  },
);
