/** The pure parts of background compaction: the soft threshold, a job's prefix basis, the worker step. */
import { describe, expect, it } from 'vitest';
import { checkSoft, pastSoft, resolveBudget, softLimit } from '../../src/budget/index.js';
import { extractiveSummarizer, isNothingToCompact, planCompaction } from '../../src/compact/index.js';
import { ConfigError } from '../../src/model/errors.js';
import { emptySessionState } from '../../src/model/session.js';
import { basisOf, type SummaryJob, staleReason, summarizeJob } from '../../src/session/background/job.js';
import { assistant, entries, tool, user } from '../compact/helpers.js';

describe('soft threshold', () => {
  it('is a share of whichever limit triggers first, so it is always below it', () => {
    const usable = resolveBudget({ contextWindow: 200_000, maxOutput: 32_000, threshold: 0 });
    expect(softLimit(usable, 0.6)).toBe(Math.floor(0.6 * 168_000));
    const absolute = resolveBudget({ contextWindow: 200_000, maxOutput: 32_000, absolute: 50_000 });
    expect(softLimit(absolute, 0.6)).toBe(30_000);
    expect(pastSoft(30_000, absolute, 0.6)).toBe(false);
    expect(pastSoft(30_001, absolute, 0.6)).toBe(true);
  });

  it('never fires when nothing can trigger, and must lie in (0, 1)', () => {
    expect(softLimit(resolveBudget({ contextWindow: 0 }), 0.6)).toBeNull();
    expect(pastSoft(1e9, resolveBudget({ contextWindow: 100_000, auto: false }), 0.6)).toBe(false);
    for (const bad of [0, 1, -0.1, 2, Number.NaN]) expect(() => checkSoft(bad)).toThrow(ConfigError);
    expect(checkSoft(0.6)).toBe(0.6);
  });
});

function window() {
  const log = entries([
    user('Fix the parser in src/parse.ts'),
    assistant('', tool('read', { path: 'src/parse.ts' }, 'x'.repeat(4_000))),
    assistant('Fixed the off-by-one.'),
    user('Now add a test'),
    assistant('', tool('write', { path: 'test/parse.test.ts' }, 'written')),
    assistant('Added.'),
    user('Run it'),
    assistant('Passes.'),
  ]);
  const plan = planCompaction(log, { keepTurns: 1 });
  if (isNothingToCompact(plan)) throw new Error(plan.reason);
  return { log, plan, state: { ...emptySessionState(), activeFromSeq: 0 } };
}

describe('prefix basis', () => {
  it('holds while only entries after the span are added, and whatever order a store lists keys in', () => {
    const { log, plan, state } = window();
    const basis = basisOf(state, log, plan);
    expect(basis.count).toBe(plan.toSummarize.length);
    const later = entries([user('And document it')], log.length);
    expect(staleReason(basis, state, [...log, ...later])).toBeNull();
    const reordered = log.map((e) => Object.fromEntries(Object.entries(e).reverse()) as typeof e);
    expect(staleReason(basis, state, reordered)).toBeNull();
  });

  it('breaks when a summarized entry changes (a prune mark), one is missing, or the pivot moved', () => {
    const { log, plan, state } = window();
    const basis = basisOf(state, log, plan);
    const pruned = structuredClone(log);
    const part = pruned[1]!.message.parts[0]!;
    if (part.type === 'tool') part.compactedAt = 1;
    expect(staleReason(basis, state, pruned)).toBe('span-changed');
    expect(staleReason(basis, state, log.slice(1))).toBe('span-changed');
    expect(staleReason(basis, { ...state, pivotId: 'p1' }, null)).toBe('pivot-moved');
    expect(staleReason(basis, { ...state, activeFromSeq: 3 }, log)).toBe('pivot-moved');
    // Without the window only the O(1) check runs.
    expect(staleReason(basis, state, null)).toBeNull();
  });
});

describe('the worker step', () => {
  it('summarizes a job that went through JSON as it would the job itself', async () => {
    const { log, plan, state } = window();
    const job: SummaryJob = {
      sessionId: 's',
      basis: basisOf(state, log, plan),
      plan,
      instructions: 'Keep paths.',
    };
    const summarizer = extractiveSummarizer();
    const direct = await summarizeJob(job, summarizer);
    const wired = await summarizeJob(JSON.parse(JSON.stringify(job)), summarizer);
    expect(wired).toEqual(direct);
    expect(direct.summarizer).toEqual({ name: 'extractive' });
    expect(direct.text).toContain('src/parse.ts');
  });
});
