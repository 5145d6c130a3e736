import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { planPrune, resolvePruneOptions } from '../../src/prune/index.js';
import { assistant, K, log, marked, marker, tool, user } from './helpers.js';

const noTurns = resolvePruneOptions({ protectTurns: 0 });

/** A 40k window of two 20k parts, newest, after `older` messages. */
function withWindow(...older: Message[]) {
  return log([user(), ...older, assistant(tool(20 * K), tool(20 * K))]);
}

describe('minimum comparison (C-12)', () => {
  const entries = withWindow(assistant(tool(20 * K)));

  it("exactly 20,000 prunable tokens are not pruned with '>'", () => {
    const plan = planPrune(entries, noTurns);
    expect(plan).toMatchObject({ prune: false, marks: [], prunableTokens: 20 * K, protectedTokens: 40 * K });
    expect(plan.reason).toMatch(/below minimum/);
  });

  it("exactly 20,000 prunable tokens are pruned with '>='", () => {
    expect(marked(planPrune(entries, { ...noTurns, minimumComparison: '>=' }))).toEqual(['e1#0']);
  });

  it('20,001 prunable tokens are pruned by default', () => {
    expect(marked(planPrune(withWindow(assistant(tool(20 * K + 1))), noTurns))).toEqual(['e1#0']);
  });
});

describe('the 20k-40k gap (TESTING item 12)', () => {
  it('tool output above the minimum but within the protect size is never pruned', () => {
    for (const total of [21, 30, 39, 40]) {
      const entries = log([user(), assistant(tool(total * K - 10 * K)), assistant(tool(10 * K))]);
      const plan = planPrune(entries, noTurns);
      expect(plan.marks).toEqual([]);
      expect(plan.protectedTokens).toBe(total * K);
    }
  });

  it('prunable tokens between minimum and protect size are all pruned and the window stays whole', () => {
    const entries = withWindow(assistant(tool(10 * K)), assistant(tool(10 * K)), assistant(tool(10 * K)));
    const plan = planPrune(entries, noTurns);
    expect(marked(plan)).toEqual(['e1#0', 'e2#0', 'e3#0']);
    expect(plan.prunableTokens).toBe(30 * K);
    expect(plan.protectedTokens).toBe(40 * K);
  });
});

describe('several prunable parts in one message (TESTING item 12)', () => {
  it('marks every part of an old message, not just one', () => {
    const entries = withWindow(assistant(...[1, 2, 3, 4, 5].map(() => tool(10 * K))));
    expect(marked(planPrune(entries, noTurns))).toEqual(['e1#0', 'e1#1', 'e1#2', 'e1#3', 'e1#4']);
  });

  it('splits a message that straddles the window at the right part', () => {
    const parallel = assistant(
      tool(10 * K),
      { type: 'text', text: 'and' },
      tool(10 * K),
      tool(10 * K),
      tool(10 * K),
    );
    const entries = log([user(), parallel, assistant(tool(30 * K))]);
    const plan = planPrune(entries, noTurns);
    expect(marked(plan)).toEqual(['e1#0', 'e1#2', 'e1#3']);
    expect(plan.protectedTokens).toBe(40 * K);
  });
});

describe('what is never pruned', () => {
  it('protected tools by name are neither pruned nor counted', () => {
    const entries = withWindow(assistant(tool(60 * K, { name: 'skill' }), tool(25 * K)));
    const plan = planPrune(entries, noTurns);
    expect(marked(plan)).toEqual(['e1#1']);
    expect(plan.prunableTokens).toBe(25 * K);
    const custom = planPrune(entries, { ...noTurns, protectedTools: ['read'] });
    expect(custom.marks).toEqual([]);
  });

  it('protected tools by predicate, which sees the part and its entry', () => {
    const entries = withWindow(assistant(tool(30 * K, { name: 'todo' })), assistant(tool(30 * K)));
    const seen: string[] = [];
    const isProtected = (part: { name: string }, entry: { id: string }) => {
      seen.push(entry.id);
      return part.name === 'todo';
    };
    const plan = planPrune(entries, { ...noTurns, isProtected });
    expect(marked(plan)).toEqual(['e2#0']);
    expect(seen).toContain('e1');
  });

  it('errored outputs are prunable by default, not with prunableStates [completed]', () => {
    const entries = withWindow(assistant(tool(30 * K, { state: 'error' })));
    expect(marked(planPrune(entries, noTurns))).toEqual(['e1#0']);
    expect(planPrune(entries, { ...noTurns, prunableStates: ['completed'] }).marks).toEqual([]);
  });

  it('pending and running parts are never pruned', () => {
    const entries = withWindow(assistant(tool(0, { state: 'pending' }), tool(0, { state: 'running' })));
    const big = { ...noTurns, protectTokens: 0, minimumTokens: 0, minimumComparison: '>=' as const };
    expect(planPrune(entries, big).marks.map((m) => m.entryId)).not.toContain('e1');
  });

  it('never user or assistant text, reasoning or files', () => {
    const text = 'z'.repeat(200_000);
    const entries = log([
      user(text),
      assistant(
        { type: 'text', text },
        { type: 'reasoning', text },
        { type: 'file', mediaType: 'image/png', data: 'AA' },
      ),
      assistant(tool(10 * K)),
    ]);
    const all = planPrune(entries, { ...noTurns, protectTokens: 0, minimumTokens: 0 });
    expect(marked(all)).toEqual(['e2#0']);
  });
});

describe('the last user turns (A001-04)', () => {
  const turns = (...sizes: number[]) => log(sizes.flatMap((n) => [user(), assistant(tool(n * K))]));

  it('the last 2 user turns are never pruned and do not fill the window', () => {
    const entries = turns(30, 30, 30, 50, 50);
    const plan = planPrune(entries, resolvePruneOptions());
    expect(marked(plan)).toEqual(['e1#0']);
    expect(plan.protectedTokens).toBe(60 * K);
    expect(marked(planPrune(entries, noTurns))).toEqual(['e1#0', 'e3#0', 'e5#0', 'e7#0']);
  });

  it('with fewer user turns than protectTurns nothing is pruned', () => {
    const entries = log([user(), ...[1, 2, 3, 4].map(() => assistant(tool(30 * K)))]);
    expect(planPrune(entries, resolvePruneOptions()).marks).toEqual([]);
    expect(planPrune(entries, resolvePruneOptions({ protectTurns: 1 })).marks).toEqual([]);
  });

  it("synthetic, marker and summary user messages do not start a turn, unless counting 'any-user'", () => {
    const entries = log([
      ...[30, 30, 30, 30, 50].flatMap((n) => [user(), assistant(tool(n * K))]),
      marker(),
      user('Continue if you have next steps', { synthetic: true }),
      { role: 'user', parts: [{ type: 'text', text: 'go on', synthetic: true }] },
      user('summary', { summary: true }),
      assistant(tool(50 * K)),
    ]);
    // The last two real user messages are e8 and e6: e7, e9 and e14 are protected, e5 and e3 fill
    // the window, e1 is pruned.
    const real = planPrune(entries, resolvePruneOptions({ onSummary: 'skip' }));
    expect(marked(real)).toEqual(['e1#0']);
    expect(real.protectedTokens).toBe(60 * K);
    // Counting every user message, the synthetic ones (e12, e11) are the last two turns.
    const anyUser = planPrune(entries, resolvePruneOptions({ onSummary: 'skip', turnCounting: 'any-user' }));
    expect(marked(anyUser)).toEqual(['e1#0', 'e3#0', 'e5#0', 'e7#0']);
    expect(anyUser.protectedTokens).toBe(50 * K);
  });
});
