/**
 * A 'summary' fork at an entry one compaction kept and the next one summarized, shrunk from the
 * lineage property test: the fork point is the second compaction's summarizedThroughId, so the
 * fork's pivot shares it, but the summary it reuses was written from the first summary and the
 * fork point only. In the fork, that summary stands for everything before it (README session.fork,
 * A002-07): no gap, no duplicate, nothing kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/index.js';
import { openSession, type Session } from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { sizedSay, sizedUser } from '../presets/support.js';
import { CONFIGS } from '../session/ops.js';
import { checkContexts, checkCoverage, checkTurns } from './check.js';
import { recording } from './recording.js';

const dir = mkdtempSync(join(tmpdir(), 'condense-summary-fork-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores: [string, () => Store][] = [
  ['memory', () => memoryStore()],
  ['sqlite', () => sqliteStore({ path: join(dir, `${Math.random().toString(36).slice(2)}.db`) })],
];

/** Every lineage invariant of the property test, on `session` as it stands. */
async function checkAll(session: Session, given: Map<string, string[]>): Promise<Entry[]> {
  const log = await session.history();
  const lineage = await session.lineage();
  checkTurns(lineage, log);
  checkCoverage(lineage, log, given);
  checkContexts(lineage, session);
  return log;
}

/** The counterexample, spelled out: A, B; compact (A | B kept); C, D; compact (B | C, D kept); fork at B. */
async function scenario(store: Store): Promise<void> {
  const given = new Map<string, string[]>();
  const config = CONFIGS['default tail, user summary']!;
  const session = await openSession(store, 'src', {
    ...config,
    compaction: { ...config.compaction, summarizer: recording(given, config.compaction?.summaryTokens) },
    now: () => 1_700_000_000_000,
  });
  // keepTokens 1,500: each compaction keeps what fits, newest first.
  await session.append(sizedSay('Working on request 0.', 2_000));
  await session.append(sizedUser('Request 1: update src/feature1.ts', 1_000));
  await session.compact(); // summarizes A, keeps B
  await session.append(sizedUser('Request 2: update src/feature2.ts', 800));
  await session.append(sizedUser('Request 3: update src/feature3.ts', 600));
  await session.compact(); // summarizes the first summary and B, keeps C and D
  const [a, b, first, c, d, second] = (await checkAll(session, given)).map((e) => e.id);
  const source = await session.lineage();
  expect(source.getCoverage(first!)).toMatchObject({ summarizedEntryIds: [a], keptEntryIds: [b] });
  expect(source.getCoverage(second!)).toMatchObject({ summarizedEntryIds: [b], keptEntryIds: [c, d] });
  expect(source.getCoverage(second!).previousCompaction?.id).toBe(first);
  expect(given.get(b!)).toStrictEqual([b]);

  const fork = await session.fork('fork', { at: b!, mode: 'summary' });
  const log = await checkAll(fork, given);
  const pivot = log.at(-1)!;
  expect(log.map((e) => e.id)).toStrictEqual([a, b, pivot.id]);
  if (pivot.kind !== 'compaction') throw new Error('the fork does not end with a pivot');
  // The same summarizedThroughId as the source's second compaction, a wider span than its input.
  expect(pivot.pivot).toMatchObject({ summarizedThroughId: b, firstKeptId: null, previousPivotId: null });
  expect(pivot.pivot.details.extra?.forkedFromCompaction).toStrictEqual({
    id: second,
    summarizedThroughId: b,
  });
  const lineage = await fork.lineage();
  const coverage = lineage.getCoverage(pivot.id);
  expect(coverage.summarizedEntryIds).toStrictEqual([a, b]);
  expect(coverage.keptEntryIds).toStrictEqual([]);
  expect(coverage.previousCompaction).toBeNull();
  for (const id of [a!, b!]) {
    expect(lineage.findCompactionThatSummarized(lineage.turnOfEntry(id).id)?.id).toBe(pivot.id);
  }
  expect(fork.activeEntries().map((e) => e.id)).toStrictEqual([pivot.id]);

  // The fork goes on and compacts on its own: every invariant still holds.
  await fork.append(sizedSay('Working on request 4.', 2_000));
  await fork.append(sizedUser('Request 5: update src/feature5.ts', 1_000));
  await fork.compact();
  const after = await checkAll(fork, given);
  expect(after.filter((e) => e.kind === 'compaction')).toHaveLength(2);
}

describe.each(stores)(
  'a summary fork at the entry a compaction kept and the next summarized (%s)',
  (_, open) => {
    it('its pivot stands for the whole fork, not only for what the source compaction was given', async () => {
      const store = open();
      try {
        await scenario(store);
      } finally {
        await store.close();
      }
    });
  },
);
