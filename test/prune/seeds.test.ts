import { describe, expect, it } from 'vitest';
import { PRUNE_SEED_000, PRUNE_SEED_001, planPrune, resolvePruneOptions } from '../../src/prune/index.js';
import { assistant, K, log, marked, pivot, summaryMessage, tool, user } from './helpers.js';

const seed000 = resolvePruneOptions(PRUNE_SEED_000);
const seed001 = resolvePruneOptions(PRUNE_SEED_001);
const defaults = resolvePruneOptions();

describe('seed 000 edge cases', () => {
  it('overshoot: a single part over 40k is protected whole', () => {
    const plan = planPrune(log([user(), assistant(tool(45 * K))]), seed000);
    expect(plan).toMatchObject({ marks: [], prune: false, protectedTokens: 45 * K, prunableTokens: 0 });
  });

  it('overshoot: the part that reaches 40k is protected and older parts are pruned', () => {
    const entries = log([user(), assistant(tool(25 * K)), assistant(tool(30 * K)), assistant(tool(45 * K))]);
    const plan = planPrune(entries, seed000);
    expect(marked(plan)).toEqual(['e1#0', 'e2#0']);
    expect(plan.protectedTokens).toBe(45 * K);
    expect(plan.prunableTokens).toBe(55 * K);
  });

  it('empty conversation: nothing to do', () => {
    for (const opts of [seed000, seed001, defaults]) {
      const plan = planPrune([], opts);
      expect(plan).toEqual({
        marks: [],
        prunableTokens: 0,
        protectedTokens: 0,
        prune: false,
        reason: expect.any(String),
      });
      expect(plan.reason).toMatch(/nothing prunable/);
    }
  });

  it('a conversation with no tool parts: nothing to do', () => {
    const entries = log([user('x'.repeat(400_000)), assistant({ type: 'text', text: 'y'.repeat(400_000) })]);
    expect(planPrune(entries, seed000).marks).toEqual([]);
  });

  it('already pruned parts are skipped and scanning continues (000) or stops there (001, default)', () => {
    const entries = log([
      user(),
      assistant(tool(30 * K)),
      assistant(tool(30 * K, { compactedAt: 5 })),
      assistant(tool(30 * K)),
      assistant(tool(30 * K)),
    ]);
    expect(marked(planPrune(entries, seed000))).toEqual(['e1#0']);
    // 001 without its turn rule: the crossing part is pruned, then the mark stops the scan.
    expect(marked(planPrune(entries, { ...seed001, protectTurns: 0 }))).toEqual(['e3#0']);
    const byDefault = planPrune(entries, { ...defaults, protectTurns: 0 });
    expect(byDefault.marks).toEqual([]);
    expect(byDefault.reason).toMatch(/marked part in e2/);
  });

  it('summary messages are skipped in 000 and stop the scan in 001 and by default', () => {
    const items = [
      user(),
      assistant(tool(30 * K)),
      user(),
      summaryMessage(),
      assistant(tool(30 * K)),
      assistant(tool(30 * K)),
    ];
    const entries = log(items);
    expect(marked(planPrune(entries, seed000))).toEqual(['e1#0']);
    // 001 prunes its crossing part after the summary but never looks past the summary.
    expect(marked(planPrune(entries, { ...seed001, protectTurns: 0 }))).toEqual(['e4#0']);
    const byDefault = planPrune(entries, { ...defaults, protectTurns: 0 });
    expect(byDefault.marks).toEqual([]);
    expect(byDefault.reason).toMatch(/pivot e3/);
  });

  it('a compaction entry is a pivot too', () => {
    const entries = log([
      user(),
      assistant(tool(30 * K)),
      { pivot: pivot() },
      assistant(tool(30 * K)),
      assistant(tool(30 * K)),
    ]);
    expect(marked(planPrune(entries, seed000))).toEqual(['e1#0']);
    expect(planPrune(entries, { ...defaults, protectTurns: 0 }).marks).toEqual([]);
  });

  it('the summary itself is never marked or counted, even if it holds a tool part', () => {
    const odd = { ...summaryMessage(), parts: [tool(50 * K)] };
    const entries = log([user(), assistant(tool(30 * K)), odd, assistant(tool(30 * K))]);
    const plan = planPrune(entries, seed000);
    expect(marked(plan)).toEqual([]);
    expect(plan.protectedTokens).toBe(60 * K);
  });
});

describe('C-11: what fills the window and the part that crosses it', () => {
  const sizes = [10, 25, 25, 1, 1].map((n) => n * K);

  it('t1 10k, t2 25k, t3 25k, t4 1k, t5 1k, one turn each: 001 marks t1 and t2, 000 nothing', () => {
    const entries = log(sizes.flatMap((n) => [user(), assistant(tool(n))]));
    const p001 = planPrune(entries, seed001);
    expect(marked(p001)).toEqual(['e1#0', 'e3#0']);
    expect(p001.prunableTokens).toBe(35 * K);
    const p000 = planPrune(entries, seed000);
    expect(p000).toMatchObject({ marks: [], prune: false, protectedTokens: 52 * K, prunableTokens: 10 * K });
  });

  it('the same sizes in one message without turn structure give the same answer', () => {
    const entries = log([user(), assistant(...sizes.map((n) => tool(n)))]);
    expect(marked(planPrune(entries, { ...seed001, protectTurns: 0 }))).toEqual(['e1#0', 'e1#1']);
    expect(planPrune(entries, seed000).marks).toEqual([]);
  });

  it('30k, 30k, 30k with no turn structure: 000 prunes the oldest, 001 the two oldest', () => {
    const entries = log([user(), assistant(tool(30 * K)), assistant(tool(30 * K)), assistant(tool(30 * K))]);
    expect(marked(planPrune(entries, seed000))).toEqual(['e1#0']);
    expect(marked(planPrune(entries, { ...seed001, protectTurns: 0 }))).toEqual(['e1#0', 'e2#0']);
  });

  it('30k, 30k, 30k older than the last two turns: the 001 preset prunes the two oldest', () => {
    const entries = log([
      ...[30, 30, 30].flatMap((n) => [user(), assistant(tool(n * K))]),
      user(),
      assistant({ type: 'text', text: 'ok' }),
      user(),
      assistant({ type: 'text', text: 'ok' }),
    ]);
    expect(marked(planPrune(entries, seed001))).toEqual(['e1#0', 'e3#0']);
    expect(marked(planPrune(entries, seed000))).toEqual(['e1#0']);
  });

  it("'prune' crossing prunes even a lone part that is over the window by itself", () => {
    const entries = log([user(), assistant(tool(45 * K))]);
    expect(marked(planPrune(entries, { ...seed001, protectTurns: 0 }))).toEqual(['e1#0']);
  });

  it('a window filled exactly to 40k protects the same parts under both crossings', () => {
    const entries = log([user(), assistant(tool(25 * K)), assistant(tool(20 * K)), assistant(tool(20 * K))]);
    for (const crossing of ['protect', 'prune'] as const) {
      const plan = planPrune(entries, { ...defaults, protectTurns: 0, crossing });
      expect(marked(plan)).toEqual(['e1#0']);
      expect(plan.protectedTokens).toBe(40 * K);
    }
  });
});
