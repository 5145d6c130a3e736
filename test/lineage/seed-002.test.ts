/**
 * Seed 002's compaction scenarios through the turn view: the first, second and Nth compactions
 * reproduce the lineage fields of its examples, getSummarizedTurns returns the seed's lists, and
 * buildContext gives its "Agent context for next turn". Seed ids (turn-00n, compact-00k) are
 * matched to condense's by the turns' texts.
 */
import { describe, expect, it } from 'vitest';
import type { OpenAIChatMessage } from '../../src/context/index.js';
import { NotACompactionError, UnknownTurnError } from '../../src/lineage/index.js';
import { sizedUser } from '../presets/support.js';
import {
  asCompaction,
  compactNow,
  firstCompaction,
  label,
  nexus,
  secondCompaction,
  seedNames,
  turn,
} from './scenario.js';

/** The OpenAI messages' first lines, role-prefixed. */
const lines = (messages: OpenAIChatMessage[]) =>
  messages.map((m) => `${m.role}:${String(m.content).split('\n')[0]!.slice(0, 60)}`);

describe('seed 002 through the turn view', () => {
  it('first compaction: summarize 1-3, keep 4-5; the next turn sees [summary, 4, 5, new query]', async () => {
    const session = await nexus();
    await firstCompaction(session);
    await session.append(sizedUser('turn-006 query', 1_000));

    const lineage = await session.lineage();
    const turns = lineage.turns();
    const name = seedNames(turns);
    expect(turns.map(name)).toStrictEqual([1, 2, 3, 4, 5].map(label).concat('compact-001', 'turn-006'));
    const c1 = asCompaction(turns[5]!);
    const byName = (n: string) => turns.find((t) => name(t) === n)!;
    expect(c1).toMatchObject({
      parentTurnId: byName('turn-005').id,
      turnType: 'compaction',
      summary: 'User discussed project setup, decided on TypeScript...',
      summarizedThroughTurnId: byName('turn-003').id,
      firstKeptTurnId: byName('turn-004').id,
      tokensBefore: 180_001,
      tokensAfter: c1.tokenCount + 30_000,
      hasChildren: true,
      toolCalls: [],
      model: 'scripted',
    });
    expect(c1.queryMessages.map((m) => m.role)).toStrictEqual(['system']);
    expect(c1.responseMessage?.parts).toStrictEqual([{ type: 'text', text: c1.summary }]);
    expect(byName('turn-006')).toMatchObject({ parentTurnId: c1.id, hasChildren: false, turnType: 'normal' });
    expect(byName('turn-006').responseMessage).toBeUndefined();
    expect(byName('turn-004')).toMatchObject({
      tokenCount: 15_000,
      model: 'nexus-model',
      parentTurnId: byName('turn-003').id,
    });

    expect(lineage.getSummarizedTurns(c1.id).map(name)).toStrictEqual(['turn-001', 'turn-002', 'turn-003']);
    expect(lineage.getFullHistory(byName('turn-006').id).map(name)).toStrictEqual(turns.map(name));

    // "Agent context for next turn": [System: Summary of turns 1-3] [Turn 4] [Turn 5] [New user query].
    const context = lineage.buildContext(byName('turn-006').id, { format: 'openai' });
    expect(context[0]).toStrictEqual({ role: 'system', content: c1.summary });
    expect(lines(context.slice(1))).toStrictEqual([
      'user:turn-004 query',
      'assistant:turn-004 response',
      'user:turn-005 query',
      'assistant:turn-005 response',
      'user:turn-006 query',
    ]);
    // It is exactly what the session sends for that turn.
    expect((await session.prepare({ format: 'openai' })).messages).toStrictEqual(context);
    // Before the compaction, the whole thread (A002-17).
    expect(lines(lineage.buildContext(byName('turn-002').id, { format: 'openai' }))).toStrictEqual([
      'user:turn-001 query',
      'assistant:turn-001 response',
      'user:turn-002 query',
      'assistant:turn-002 response',
    ]);
  });

  it('second compaction: summarize compact-001 through turn-006, keep 7-8; [compact-001, turn-006]', async () => {
    const session = await nexus();
    await secondCompaction(session);

    const lineage = await session.lineage();
    const turns = lineage.turns();
    const name = seedNames(turns);
    const byName = (n: string) => turns.find((t) => name(t) === n)!;
    const [c1, c2] = [asCompaction(byName('compact-001')), asCompaction(byName('compact-002'))];
    expect(c2).toMatchObject({
      parentTurnId: byName('turn-008').id,
      turnType: 'compaction',
      summary: `Previously summarized: [${c1.summary}]. Then user worked on auth...`,
      summarizedThroughTurnId: byName('turn-006').id,
      firstKeptTurnId: byName('turn-007').id,
      tokensBefore: c1.tokenCount + 30_000 + 121_000 + 30_000,
      tokensAfter: c2.tokenCount + 30_000,
      hasChildren: false,
    });
    expect(lineage.getSummarizedTurns(c2.id).map(name)).toStrictEqual(['compact-001', 'turn-006']);
    // What compact-002 really stands for (A002-01/02): compact-001's summary and its kept 4-5, then 6.
    const coverage = lineage.getCoverage(c2.id);
    expect(coverage.previousCompaction?.id).toBe(c1.id);
    expect(coverage.summarizedTurns.map(name)).toStrictEqual(['turn-004', 'turn-005', 'turn-006']);
    expect(coverage.keptTurns.map(name)).toStrictEqual(['turn-007', 'turn-008']);
    expect(lineage.findCompactionThatSummarized(byName('turn-004').id)?.id).toBe(c2.id);
    expect(lineage.findCompactionThatSummarized(byName('turn-002').id)?.id).toBe(c1.id);
    expect(lineage.findCompactionThatSummarized(c1.id)?.id).toBe(c2.id);
    expect(lineage.findCompactionThatSummarized(byName('turn-007').id)).toBeNull();
    expect(lineage.findLatestCompaction(byName('turn-008').id)?.id).toBe(c1.id);
    expect(lineage.findLatestCompaction(c2.id)?.id).toBe(c2.id);
    expect(lineage.findLatestCompaction(byName('turn-003').id)).toBeNull();
    const context = lineage.buildContext(c2.id, { format: 'openai' });
    expect(lines(context)).toStrictEqual([
      `system:${c2.summary.slice(0, 60)}`,
      'user:turn-007 query',
      'assistant:turn-007 response',
      'user:turn-008 query',
      'assistant:turn-008 response',
    ]);
  });

  it('Nth compaction: each summarizes the previous one through its round, keeps the last two turns', async () => {
    const session = await nexus();
    const rounds = 5;
    for (let r = 0; r < rounds; r++) {
      const big = r === 0 ? [50_000, 50_000, 50_001] : [40_000, 40_000, 40_000];
      for (const [i, tokens] of [...big, 15_000, 15_000].entries())
        await session.append(turn(5 * r + i + 1, tokens));
      await compactNow(session);
    }
    await session.append(turn(5 * rounds + 1));

    const lineage = await session.lineage();
    const turns = lineage.turns();
    const name = seedNames(turns);
    const byName = (n: string) => turns.find((t) => name(t) === n)!;
    for (let k = 1; k <= rounds; k++) {
      const c = byName(`compact-00${k}`);
      const at = (i: number) => label(5 * (k - 1) + i);
      expect(c).toMatchObject({
        parentTurnId: byName(at(5)).id,
        summarizedThroughTurnId: byName(at(3)).id,
        firstKeptTurnId: byName(at(4)).id,
      });
      const expected = [at(1), at(2), at(3)];
      expect(lineage.getSummarizedTurns(c.id).map(name)).toStrictEqual(
        k === 1 ? expected : [`compact-00${k - 1}`, ...expected],
      );
      // The turns it kept are summarized by the next one.
      const next = k < rounds ? `compact-00${k + 1}` : null;
      expect(lineage.findCompactionThatSummarized(byName(at(4)).id)?.id ?? null).toBe(
        next && byName(next).id,
      );
      expect(byName(label(5 * k + 1)).parentTurnId).toBe(c.id);
    }
    expect(lineage.getFullHistory(lineage.head()!.id)).toHaveLength(5 * rounds + rounds + 1);
  });

  it('names the unknown turn and the normal turn given where a compaction is needed', async () => {
    const session = await nexus();
    await session.append(turn(1));
    const lineage = await session.lineage();
    const [t1] = lineage.turns();
    for (const call of [
      () => lineage.turn('nope'),
      () => lineage.getFullHistory('nope'),
      () => lineage.buildContext('nope'),
      () => lineage.findCompactionThatSummarized('nope'),
      () => lineage.findLatestCompaction('nope'),
    ]) {
      expect(call).toThrow(UnknownTurnError);
      expect(call).toThrow(/session nexus has no turn 'nope'/);
    }
    await expect(session.turn('nope')).rejects.toThrow(UnknownTurnError);
    expect(() => lineage.getSummarizedTurns(t1!.id)).toThrow(NotACompactionError);
    expect(() => lineage.getCoverage(t1!.id)).toThrow(/is a normal turn, not a compaction/);
  });
});
