/**
 * Pruning after several compactions that keep a tail: an older pivot can sit inside the active
 * window (its kept tail is still kept). It is not in the model's view, so it must not stop the
 * pruning scan the way the current pivot does.
 */
import { describe, expect, it } from 'vitest';
import type { Part, ToolPart } from '../../src/model/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, scripted, toolRun, user } from '../presets/support.js';

describe('pruning with an older pivot inside the kept tail', () => {
  it('prunes the kept outputs beyond the protect window, past the older pivot', async () => {
    const session = await openSession(memoryStore(), 's', {
      model: 'm',
      limits: { contextWindow: 1_000_000, maxOutput: 10_000 },
      prune: { protectTokens: 1_000, minimumTokens: 400, protectTurns: 0 },
      compaction: {
        plan: { keepTurns: 3, keepTokens: 50_000 },
        summarizer: scripted((_r, n) => `Summary ${n}.`),
      },
    });
    const turn = (n: number, tokens: number) => [
      user(`Request ${n}`),
      act(toolRun('read', { path: `src/t${n}.ts` }, tokens)),
    ];
    await session.append([...turn(1, 3_000), ...turn(2, 3_000), ...turn(3, 2_000), ...turn(4, 2_000)]);
    expect((await session.compact()).status).toBe('compacted'); // summarizes 1, keeps 2-4
    await session.append(turn(5, 100));
    expect((await session.compact()).status).toBe('compacted'); // summarizes C1 + 2, keeps 3-5
    const kinds = session.activeEntries().map((e) => e.kind);
    expect(kinds.filter((k) => k === 'compaction')).toHaveLength(2);

    // Newest first: t5 100, t4 2,000 (reaches 1,000: protected), t3 2,000 > 400: pruned.
    const outcome = await session.prune();
    expect(outcome?.parts).toBe(1);
    const tools = session
      .activeEntries()
      .flatMap((e): Part[] => (e.kind === 'message' ? e.message.parts : []))
      .filter((p): p is ToolPart => p.type === 'tool');
    expect(tools.map((t) => t.compactedAt !== undefined)).toEqual([true, false, false]);
  });
});
