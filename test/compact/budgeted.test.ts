import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizeExtractive } from '../../src/compact/extractive.js';
import { buildSummaryRequest } from '../../src/compact/input.js';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { syntheticSession } from '../../src/demo/synthetic.js';
import { parseTranscript } from '../../src/import/index.js';
import type { Message } from '../../src/model/message.js';
import { budgetEstimator, tokenizerCount } from '../../src/tokens/budget-count.js';
import { entries, estimator } from './helpers.js';

const WORDS =
  'the build failed on Monday because src/cache.ts kept 86400 seconds and Alice moved to Paris in 2021 after a long week'.split(
    ' ',
  );
const sentence = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 14 })
      .chain((w) => fc.constantFrom('.', '!', '?').map((end) => `${w.join(' ')}${end}`)),
  },
  { weight: 1, arbitrary: fc.constant('We decided to keep SQLite instead of Postgres.') },
);
const text = fc.array(sentence, { minLength: 1, maxLength: 9 }).map((s) => s.join(s.length > 4 ? '\n' : ' '));
const chat = fc.array(text, { minLength: 6, maxLength: 60 }).map((texts) =>
  texts.map(
    (t, i): Message => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      parts: [{ type: 'text', text: t }],
      metadata: { name: i % 2 === 0 ? 'Ann' : 'Bo' },
    }),
  ),
);

function summarize(messages: Message[], budget: number) {
  const plan = planCompaction(entries(messages), { keepNone: true });
  if (isNothingToCompact(plan)) throw new Error(plan.reason);
  return summarizeExtractive(buildSummaryRequest(plan), budget, estimator);
}

const flatten = (s: string) => s.replace(/\s+/g, ' ').trim();
/** Quoted lines of a chat summary: "Name: excerpt", pieces joined by " … ". */
function quoted(summary: string): Array<[string, string[]]> {
  return summary.split('\n').flatMap((l) => {
    const m = /^(Ann|Bo): (.*)$/.exec(l);
    return m ? [[m[1]!, m[2]!.split(' … ')] as [string, string[]]] : [];
  });
}

describe('budgeted extractive summaries (properties)', () => {
  it('stay within budget, quote only verbatim pieces cut at word boundaries, and are deterministic', () => {
    fc.assert(
      fc.property(chat, fc.integer({ min: 400, max: 3_000 }), (messages, budget) => {
        const r = summarize(messages, budget);
        // Over budget only when what is never cut (the headings, the appendix) is over it alone.
        const floor = estimator.text(summarize(messages, 0).text);
        expect(estimator.text(r.text)).toBeLessThanOrEqual(Math.max(budget, floor));
        expect(summarize(messages, budget).text).toBe(r.text);
        const sources = messages.map((m) => flatten((m.parts[0] as { text: string }).text));
        for (const [, pieces] of quoted(r.text)) {
          for (const piece of pieces) {
            const at = sources.map((s) => [s, s.indexOf(piece)] as const).find(([, i]) => i >= 0);
            expect(at, `"${piece}" is not verbatim`).toBeDefined();
            const [s, i] = at!;
            // Never a cut inside a word: the piece starts and ends where words do.
            expect(i === 0 || /\W/.test(s[i - 1]!)).toBe(true);
            expect(i + piece.length === s.length || /\W/.test(s[i + piece.length]!)).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('fill the budget when there is more to say', () => {
    let checked = 0;
    fc.assert(
      fc.property(chat, (messages) => {
        const total = messages.reduce((a, m) => a + estimator.message(m), 0);
        const budget = Math.max(200, Math.floor(total / 3));
        // Only conversations with more to say than the budget holds (too few to use fc.pre).
        if (total <= 2 * budget) return;
        checked++;
        const r = summarize(messages, budget);
        // Short of the budget by less than one more quote: a message (a quote is at most one),
        // with its speaker's label and the joint around it.
        const largest = Math.max(...messages.map((m) => estimator.message(m)));
        expect(estimator.text(r.text)).toBeGreaterThanOrEqual(budget - largest - 12);
      }),
      { numRuns: 200 },
    );
    expect(checked).toBeGreaterThan(10);
  });

  it('quote both speakers, spread over the whole conversation', () => {
    const messages: Message[] = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      parts: [
        {
          type: 'text',
          text: `On day ${i} I moved the build of src/m${i}.ts to Paris with Alice, in 20${10 + i}.`,
        },
      ],
      metadata: { name: i % 2 === 0 ? 'Ann' : 'Bo' },
    }));
    const lines = quoted(summarize(messages, 700).text);
    expect(new Set(lines.map(([who]) => who))).toEqual(new Set(['Ann', 'Bo']));
    const days = lines.map(([, [p]]) => Number(/day (\d+)/.exec(p!)![1]));
    expect(days.length).toBeGreaterThan(4);
    expect(days.length).toBeLessThan(40);
    // Neither only the start nor only the end: the first and the last quarter are both quoted.
    expect(Math.min(...days)).toBeLessThan(10);
    expect(Math.max(...days)).toBeGreaterThanOrEqual(30);
  });
});

/** A claude-code session from the shared data, never used to tune the search. */
const HELD_OUT = fileURLToPath(
  new URL('../../../shared/data/agent-sessions/claude-code/session-624a4a58.jsonl', import.meta.url),
);

describe('the search for the room that fits a budget', () => {
  // The count a compaction holds a summary to with the tokenizer installed: o200k, line by line.
  const real = budgetEstimator({ model: 'gpt-4o', estimator, ratio: 1, calibrated: false });
  const o200k = tokenizerCount('o200k_base')!;

  function summaryTokens(messages: Message[], budget: number): number {
    const plan = planCompaction(entries(messages), { keepNone: true });
    if (isNothingToCompact(plan)) throw new Error(plan.reason);
    const request = buildSummaryRequest(plan);
    return o200k(summarizeExtractive(request, budget, estimator, real.text, undefined, real.lines).text);
  }

  const sessions: Array<[string, () => Message[], number[]]> = [
    [
      'a generated coding session',
      () => [...syntheticSession({ messages: 20_000, seed: 11 })],
      [12_000, 40_000],
    ],
    ...(existsSync(HELD_OUT)
      ? [
          [
            'a real Claude Code session held out',
            () => {
              const parsed = parseTranscript(readFileSync(HELD_OUT, 'utf8'), { file: HELD_OUT });
              return (Array.isArray(parsed) ? parsed[0]! : parsed).messages.map((m) => m.message);
            },
            // Its extractive summary has about 6,800 tokens to say at most: budgets below that.
            [2_000, 5_000],
          ] as [string, () => Message[], number[]],
        ]
      : []),
  ];

  it.each(sessions)(
    'ends a few tokens under the budget, by the real tokenizer: %s',
    (_name, load, budgets) => {
      const messages = load();
      for (const budget of budgets) {
        const used = summaryTokens(messages, budget);
        expect(used).toBeLessThanOrEqual(budget);
        // Halving the room from the first overrun ended 42 short of the generated session's 12,000
        // (hundreds short of a 68,000-token budget); on the held-out session's small budgets, 7–17.
        expect(used).toBeGreaterThanOrEqual(budget - 30);
      }
    },
  );
});
