/**
 * Seed 002 "Smart Forking with Compactions" with its preset: forking at a summarized turn defaults
 * to the summary mode (summary + turns from the fork point forward), a turn not yet summarized
 * gets a simple fork, and the full reconstruction is one option away. The fork keeps its history.
 */
import { describe, expect, it } from 'vitest';
import type { OpenAIChatMessage } from '../../src/context/index.js';
import type { Lineage, Turn } from '../../src/lineage/index.js';
import { openSession, presetOptions, type Session, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { sizedUser } from '../presets/support.js';
import { firstCompaction } from './scenario.js';

const nexus: SessionOptions = {
  ...presetOptions('seed-002'),
  model: 'nexus-model',
  limits: { contextWindow: 200_000 },
};

/** Turns 1-5 compacted as in the seed (summarize 1-3, keep 4-5), then turn 6 asked. */
async function compacted(options: SessionOptions): Promise<{ session: Session; lineage: Lineage }> {
  const session = await openSession(memoryStore(), 'src', options);
  await firstCompaction(session);
  await session.append(sizedUser('turn-006 query', 1_000));
  return { session, lineage: await session.lineage() };
}

const named = (lineage: Lineage, n: number): Turn =>
  lineage.turns().find((t) => {
    const part = t.queryMessages[0]?.parts[0];
    return part?.type === 'text' && part.text.startsWith(`turn-00${n} `);
  })!;
const lastEntry = (t: Turn) => t.entryIds.at(-1)!;
const firstLines = (messages: OpenAIChatMessage[]) =>
  messages.map((m) => `${m.role}:${String(m.content).split('\n')[0]!.slice(0, 40)}`);

describe('seed 002 smart forking', () => {
  it('a summarized turn forks with the summary by default, then the fork’s own turns', async () => {
    const { session, lineage } = await compacted(nexus);
    const c1 = lineage.turns().find((t) => t.turnType === 'compaction')!;
    const before = JSON.stringify(await session.history());
    const fork = await session.fork('fork', { at: lastEntry(named(lineage, 2)) });
    expect(JSON.stringify(await session.history())).toBe(before);
    expect(fork.record.metadata).toMatchObject({ forkedFrom: { session: 'src', mode: 'summary' } });

    await fork.append(sizedUser('turn-003b query', 1_000));
    const forked = await fork.lineage();
    const turns = forked.turns();
    expect(turns.map((t) => t.turnType)).toStrictEqual(['normal', 'normal', 'compaction', 'normal']);
    expect(turns[2]).toMatchObject({
      summary: c1.turnType === 'compaction' ? c1.summary : '',
      summarizedThroughTurnId: turns[1]!.id,
      parentTurnId: turns[1]!.id,
    });
    // Full history stays traversable in the fork; its context is the summary and what came after.
    expect(forked.getFullHistory(turns[3]!.id).map((t) => t.id)).toStrictEqual(turns.map((t) => t.id));
    const { messages } = await fork.prepare({ format: 'openai' });
    expect(firstLines(messages)).toStrictEqual([
      `system:${(c1.turnType === 'compaction' ? c1.summary : '').slice(0, 40)}`,
      'user:turn-003b query',
    ]);
  });

  it('a turn the compaction kept forks simply: the thread up to it', async () => {
    const { session, lineage } = await compacted(nexus);
    const fork = await session.fork('fork', { at: lastEntry(named(lineage, 5)) });
    const turns = (await fork.lineage()).turns();
    expect(turns.map((t) => t.turnType)).toStrictEqual(Array(5).fill('normal'));
    expect(fork.record.metadata).toMatchObject({ forkedFrom: { mode: 'summary' } });
  });

  it('full reconstruction on request: the original turns verbatim, no summary', async () => {
    const { session, lineage } = await compacted(nexus);
    const fork = await session.fork('fork', { at: lastEntry(named(lineage, 2)), mode: 'full' });
    const { messages } = await fork.prepare({ format: 'openai' });
    expect(firstLines(messages)).toStrictEqual([
      'user:turn-001 query',
      'assistant:turn-001 response',
      'user:turn-002 query',
      'assistant:turn-002 response',
    ]);
  });

  it('without the preset, a fork is exact by default', async () => {
    const { session, lineage } = await compacted({ ...nexus, fork: undefined });
    const fork = await session.fork('fork', { at: lastEntry(named(lineage, 2)) });
    expect(fork.record.metadata).toMatchObject({ forkedFrom: { mode: 'exact' } });
    expect((await fork.turns()).map((t) => t.turnType)).toStrictEqual(['normal', 'normal']);
  });
});
