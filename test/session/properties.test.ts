/**
 * TESTING item 1 and the invariants list, at the session level: random sequences of append /
 * recordStep / prepare / compact / prune / recordError on a small window, on the memory store and
 * on SQLite. After every operation the context is valid for all four providers, calls and results
 * are 1:1, pivots chain and cover the log with no gap and no duplicate, the latest request is in
 * the context verbatim, nothing stored is deleted, and the running token figure is exact.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/index.js';
import { PRUNE_PLACEHOLDER } from '../../src/prune/index.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { stateFromEntries, unprunedToolTokens } from '../../src/session/state.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import {
  checkActiveWindow,
  checkContexts,
  checkIncrementalContext,
  checkLineage,
  checkOnlyGrows,
  expectedActiveTokens,
  viewTokens,
} from './invariants.js';
import { CONFIGS, type Op, opArb, Runner } from './ops.js';

const configArb = fc.constantFrom(...Object.keys(CONFIGS));
const opsArb = fc.array(opArb, { minLength: 1, maxLength: 40, size: 'max' });

interface RunStats {
  compactions: number;
  prunedParts: number;
  failedCompactions: number;
}

/** Runs one sequence and checks every invariant after every operation. */
async function runSequence(store: Store, configName: string, ops: Op[], stats: RunStats): Promise<void> {
  const options: SessionOptions = { ...CONFIGS[configName]!, now: () => 1_700_000_000_000 };
  const session = await openSession(store, 's', options);
  const snapshot = async () => JSON.stringify([await store.getSession('s'), await store.loadFrom('s', 0)]);
  const runner = new Runner(session, snapshot);
  // The pivot records the user's latest request, never a synthetic message (seed 004 §3, A004-03).
  const wrongRequests: string[] = [];
  session.on('compaction:end', ({ pivot }) => {
    stats.compactions += 1;
    const recorded = pivot.pivot.details.lastUserRequest;
    if (runner.latestRequest !== undefined && recorded !== runner.latestRequest) {
      wrongRequests.push(`pivot recorded ${JSON.stringify(recorded)}, latest is ${runner.latestRequest}`);
    }
  });
  session.on('prune', (e) => {
    stats.prunedParts += e.parts;
  });
  const erase = options.prune !== false && options.prune?.mode === 'erase';
  let previous: Entry[] = [];
  for (const [i, op] of ops.entries()) {
    try {
      await runner.run(op);
      if (wrongRequests.length > 0) throw new Error(wrongRequests.join('; '));
      const history = await session.history();
      checkOnlyGrows(previous, history, erase, PRUNE_PLACEHOLDER);
      checkLineage(history);
      checkActiveWindow(session, history);
      checkContexts(session, options.system, runner.latestRequest);
      checkIncrementalContext(session, options.system);
      const active = session.activeEntries();
      const state = session.record.state;
      if (state.activeTokens !== expectedActiveTokens(active)) {
        throw new Error(`activeTokens ${state.activeTokens} ≠ recomputed ${expectedActiveTokens(active)}`);
      }
      const tools = active.reduce((sum, e) => sum + unprunedToolTokens(e), 0);
      if (state.unprunedToolTokens !== tools) {
        throw new Error(`unprunedToolTokens ${state.unprunedToolTokens} ≠ recomputed ${tools}`);
      }
      // The rebuild used by fork and import must agree with the running figures.
      const rebuilt = stateFromEntries(history, state);
      const keys = [
        'activeFromSeq',
        'pivotId',
        'activeTokens',
        'unprunedToolTokens',
        'totalTokens',
        'entryCount',
      ] as const;
      for (const key of keys) {
        if (rebuilt[key] !== state[key]) {
          throw new Error(`stateFromEntries ${key} ${rebuilt[key]} ≠ running ${state[key]}`);
        }
      }
      previous = history;
    } catch (error) {
      throw new Error(`[${configName}] after op ${i} ${JSON.stringify(op)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  stats.failedCompactions += runner.failedCompactions;
}

describe('session operation sequences (TESTING item 1, invariants)', () => {
  it('memory store: every invariant holds after every operation (100 runs)', async () => {
    const stats: RunStats = { compactions: 0, prunedParts: 0, failedCompactions: 0 };
    await fc.assert(
      fc.asyncProperty(configArb, opsArb, async (config, ops) => {
        await runSequence(memoryStore(), config, ops, stats);
      }),
      { numRuns: 100 },
    );
    // The generators must actually reach compaction and pruning, or the property proves little.
    expect(stats.compactions).toBeGreaterThan(20);
    expect(stats.prunedParts).toBeGreaterThan(5);
  });

  const dir = mkdtempSync(join(tmpdir(), 'condense-prop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sqlite store: the same invariants (20 runs)', async () => {
    const stats: RunStats = { compactions: 0, prunedParts: 0, failedCompactions: 0 };
    let n = 0;
    await fc.assert(
      fc.asyncProperty(configArb, opsArb, async (config, ops) => {
        n += 1;
        const store = sqliteStore({ path: join(dir, `run-${n}.db`) });
        try {
          await runSequence(store, config, ops, stats);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 20 },
    );
    expect(stats.compactions).toBeGreaterThan(0);
  });
});

describe('activeTokens against the view', () => {
  // SessionState.activeTokens is "estimated tokens of the current view"; the view drops queued
  // markers, so their tokens must not count there (nor in the before-turn estimate).
  it('a pending compaction marker is not counted', async () => {
    const session = await openSession(memoryStore(), 's', CONFIGS['default tail, user summary']!);
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'Refactor the parser' }] });
    const step = await session.recordStep({
      message: { role: 'assistant', parts: [{ type: 'text', text: 'Refactoring.' }] },
      usage: { prompt_tokens: 9_900, completion_tokens: 10 },
    });
    expect(step.markerId).not.toBeNull();
    expect(session.record.state.activeTokens).toBe(viewTokens(session.activeEntries()));
  });
});
