import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syntheticSession } from '../../src/demo/synthetic.js';
import { budgetCounter, budgetEstimator, tokenizerCount } from '../../src/tokens/budget-count.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const counter = (model: string) =>
  budgetCounter({ model, estimator: heuristicEstimator(), ratio: 1, calibrated: false });

/** Lines that meet at every kind of joint the pre-tokenizers treat apart. */
const line = fc.oneof(
  fc.constantFrom('', ' ', '/', '//x', ' /usr/bin', '.', '...', ')', "'s", '\r', '\t', '\u00a0', '\u3000 x'),
  fc.constantFrom(
    'export function a() {',
    '  return 1;',
    '}',
    '$ npm test',
    'FAIL src/a.test.ts',
    'ok.',
    '1234567',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

describe('the tokenizer count of a long text', () => {
  for (const [model, encoding] of [
    ['gpt-4o', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
  ] as const) {
    it(`is the ${encoding} count of the whole text, counted line by line (property)`, () => {
      const whole = tokenizerCount(encoding)!;
      const count = counter(model);
      fc.assert(
        fc.property(fc.array(line, { minLength: 500, maxLength: 900 }), (lines) => {
          const text = lines.join('\n').replace(/(.)\1{255,}/gsu, '$1');
          expect(count(text)).toBe(whole(text, PLAIN));
        }),
        { numRuns: 40, endOnFailure: true },
      );
    });
  }

  it('is exact at joints the pre-tokenizer keeps together: blank lines, a path after punctuation, indents', () => {
    const whole = tokenizerCount('o200k_base')!;
    const count = counter('gpt-4o');
    for (const joint of ['done.\n\n\nnext', 'see:\n/usr/lib', 'a {\n  b\n}', 'x\r\ny', 'end\n\u00a0z']) {
      const text = `${joint}\n`.repeat(Math.ceil(5_000 / joint.length));
      expect(count(text)).toBe(whole(text, PLAIN));
    }
  });

  it('is the same counted again, and for a generated coding session', () => {
    const whole = tokenizerCount('o200k_base')!;
    const count = counter('gpt-4o');
    let text = '';
    for (const m of syntheticSession({ messages: 300, seed: 5 })) {
      for (const p of m.parts) text += `${JSON.stringify(p, null, 1)}\n`;
    }
    text = text.replace(/(.)\1{255,}/gsu, '$1');
    expect(count(text)).toBe(whole(text, PLAIN));
    expect(count(text)).toBe(whole(text, PLAIN));
  });
});

describe('the tokenizer count of lines as if joined', () => {
  /** Lines that may hold newlines of their own, at their start or end too. */
  const inner = fc.oneof(
    line,
    fc.tuple(line, line).map(([a, b]) => `${a}\n${b}`),
    line.map((a) => `\n${a}\n`),
  );
  for (const model of ['gpt-4o', 'gpt-4', 'claude-sonnet-4-5']) {
    it(`is the count of the joined text, long or short, counted twice (${model}, property)`, () => {
      const counts = budgetEstimator({ model, estimator: heuristicEstimator(), ratio: 1, calibrated: false });
      const lines = counts.lines!;
      fc.assert(
        fc.property(
          fc.oneof(fc.array(inner, { maxLength: 20 }), fc.array(inner, { minLength: 400, maxLength: 900 })),
          (list) => {
            const clean = list.map((l) => l.replace(/(.)\1{255,}/gsu, '$1'));
            const want = counts.text(clean.join('\n'));
            expect(lines(clean)).toBe(want);
            expect(lines(clean)).toBe(want);
          },
        ),
        { numRuns: 40, endOnFailure: true },
      );
    });
  }

  it('is offered only where the count is made line by line', () => {
    const estimator = heuristicEstimator();
    expect(
      budgetEstimator({ model: 'gpt-4o', estimator, ratio: 1.3, calibrated: true }).lines,
    ).toBeUndefined();
  });
});
