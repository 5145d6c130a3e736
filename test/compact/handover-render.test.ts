import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HANDOVER_HEADING,
  HANDOVER_SECTIONS,
  type Handover,
  renderHandover,
} from '../../src/compact/handover/index.js';
import { LAST_REQUEST_PREFIX } from '../../src/compact/input.js';
import { charsPerTokenEstimator, heuristicEstimator } from '../../src/tokens/estimator.js';
import { countWithTokenizer } from '../../src/tokens/exact.js';

const text = fc.string({ minLength: 1, maxLength: 300 });
const words = fc
  .array(fc.constantFrom('fix', 'the', 'parser', 'src/a.ts', 'npm', 'test', '✓', '\n', 'überall'), {
    minLength: 1,
    maxLength: 80,
  })
  .map((w) => w.join(' '));

const handoverArb: fc.Arbitrary<Handover> = fc.record(
  {
    cwd: fc.constantFrom('/Users/u/repo', '/r'),
    requests: fc.array(
      words.map((t) => ({ text: t })),
      { maxLength: 30 },
    ),
    currentTask: fc.record({
      request: fc.oneof(words, fc.string({ minLength: 1, maxLength: 5_000 })),
      inTail: fc.boolean(),
      done: fc.array(text, { maxLength: 8 }),
      otherCalls: fc.nat(50),
    }),
    constraints: fc.array(text, { maxLength: 6 }),
    decisions: fc.array(text, { maxLength: 4 }),
    pending: fc.array(
      fc.record({
        text,
        status: fc.constantFrom('in_progress' as const, 'pending' as const),
        source: fc.constantFrom('TodoWrite', 'bd'),
      }),
      { maxLength: 10 },
    ),
    nextStep: fc.record({
      text,
      source: fc.constantFrom(
        'todo' as const,
        'tracker' as const,
        'agent' as const,
        'plan' as const,
        'request' as const,
        'reply' as const,
      ),
    }),
    openFailures: fc.array(fc.record({ label: text, error: text }), { maxLength: 8 }),
    interrupted: fc.array(text, { maxLength: 4 }),
    commands: fc.array(
      fc.record({ label: text, status: fc.constantFrom('ok' as const, 'failed' as const, 'fixed' as const) }),
      { maxLength: 20 },
    ),
    otherCommands: fc.nat(100),
    files: fc.record({
      modified: fc.array(fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8}){0,3}\.ts$/), { maxLength: 60 }),
      read: fc.array(fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8}){0,3}\.md$/), { maxLength: 60 }),
    }),
    keyValues: fc.array(
      fc.record({
        value: text,
        kind: fc.constantFrom('url' as const, 'commit' as const, 'id' as const),
        source: text,
      }),
      { maxLength: 10 },
    ),
    chat: fc.constant(false),
  },
  // A session may have no task yet and no next step.
  {
    requiredKeys: [
      'requests',
      'constraints',
      'decisions',
      'pending',
      'openFailures',
      'interrupted',
      'commands',
      'otherCommands',
      'files',
      'keyValues',
      'chat',
    ],
  },
);

describe('renderHandover', () => {
  it('never exceeds its budget, whatever the facts and the budget (property)', () => {
    const o200k = { text: (t: string) => countWithTokenizer('o200k_base', t) };
    for (const [estimator, numRuns] of [
      [heuristicEstimator(), 150],
      [charsPerTokenEstimator(3.5), 100],
      [o200k, 40],
    ] as const)
      fc.assert(
        fc.property(
          handoverArb,
          fc.integer({ min: 0, max: 3_000 }),
          fc.constantFrom('block' as const, 'seed-004' as const),
          (h, budget, layout) => {
            const r = renderHandover(h, { budgetTokens: budget, estimator, layout });
            expect(estimator.text(r.text)).toBeLessThanOrEqual(budget);
            expect(r.tokens).toBe(r.text === '' ? 0 : estimator.text(r.text));
            // What is left out is counted, and the text says so.
            const left = Object.values(r.omitted).reduce((a, n) => a + (n ?? 0), 0);
            if (left > 0 && r.text !== '') expect(r.text).toContain('Left out for lack of room');
            if (layout === 'seed-004' && r.text !== '')
              expect(`${r.beforeActive}\n${r.afterActive}`).toBe(r.text);
          },
        ),
        { numRuns },
      );
  });

  const estimator = heuristicEstimator();
  const h: Handover = {
    cwd: '/r',
    requests: [{ text: 'Add the cache' }, { text: 'Never push to main.\nAnd document it' }],
    currentTask: {
      request: 'Never push to main.\nAnd document it',
      inTail: false,
      done: ['changed README.md'],
      otherCalls: 2,
    },
    constraints: ['Never push to main.'],
    decisions: [],
    pending: [{ text: 'Update docs', status: 'in_progress', source: 'TodoWrite' }],
    nextStep: { text: 'Update docs', source: 'todo' },
    openFailures: [{ label: 'npm test', error: 'exit 1: FAIL cache' }],
    interrupted: [],
    commands: [{ label: 'npm test', status: 'failed' }],
    otherCommands: 4,
    files: { modified: ['README.md', 'src/cache.ts'], read: ['src/a.ts'] },
    keyValues: [{ value: 'https://github.com/o/r/pull/7', kind: 'pr', source: 'gh pr create --fill' }],
    chat: false,
  };

  it('with room, shows everything: the latest request verbatim first, constraints before the next step', () => {
    const r = renderHandover(h, { budgetTokens: 2_000, estimator });
    expect(r.omitted).toEqual({});
    expect(r.text.startsWith(`${HANDOVER_HEADING}\nCurrent task`)).toBe(true);
    expect(r.text).toContain(`${LAST_REQUEST_PREFIX}Never push to main.\nAnd document it`);
    expect(r.text.indexOf("User's constraints")).toBeLessThan(r.text.indexOf('Next step:'));
    // The latest request is quoted once, as the current task.
    expect(r.text).toContain('- 1. Add the cache\n- 2. (the current task, above)');
    expect(r.text).toContain('- Modified: README.md, src/cache.ts');
    expect(r.text).toContain(
      'Commands that changed state, verified or failed (4 reads and searches not listed):',
    );
    expect(r.text).toContain('- https://github.com/o/r/pull/7 (pr, from `gh pr create --fill`)');
    const seed = renderHandover(h, { budgetTokens: 2_000, estimator, layout: 'seed-004' });
    expect(seed.text.indexOf("User's constraints")).toBeLessThan(seed.text.indexOf('Next step:'));
    expect(seed.beforeActive).toContain('## 5. Active Work and Last Actions (CRITICAL)');
    expect(seed.afterActive).toContain('## 7. Immediate Next Step');
  });

  it('short of room: every section keeps a share, the oldest requests go first, and the rest is counted', () => {
    const many: Handover = {
      ...h,
      requests: Array.from({ length: 40 }, (_, i) => ({ text: `request ${i}: ${'detail '.repeat(30)}` })),
      files: { modified: Array.from({ length: 300 }, (_, i) => `src/m${i}/index.ts`), read: [] },
    };
    const r = renderHandover(many, { budgetTokens: 1_200, estimator });
    expect(estimator.text(r.text)).toBeLessThanOrEqual(1_200);
    expect(r.omitted.requests).toBeGreaterThan(0);
    expect(r.omitted.files).toBeGreaterThan(0);
    expect(r.text).toContain('request 39:');
    expect(r.text).not.toContain('request 0:');
    for (const s of ['task', 'constraints', 'next', 'failures', 'files', 'requests'])
      expect(HANDOVER_SECTIONS).toContain(s);
    expect(r.text).toMatch(/Left out for lack of room: .*\d+ files, \d+ requests; .*history_search/);
    expect(r.text).toContain(`${LAST_REQUEST_PREFIX}Never push to main.`);
  });

  it('a budget too small for the heading gives no text, and counts everything', () => {
    const r = renderHandover(h, { budgetTokens: 3, estimator });
    expect(r.text).toBe('');
    expect(r.omitted.requests).toBe(2);
  });
});
