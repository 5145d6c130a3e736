import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkTranscript, splitText } from '../../src/compact/chunk.js';
import { buildSummaryRequest, fitsWindow, requestTokens } from '../../src/compact/input.js';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { renderBlocks } from '../../src/compact/transcript.js';
import { makeEstimator } from '../../src/tokens/estimator.js';
import { assistant, entries, estimator, tool, user } from './helpers.js';

describe('chunkTranscript', () => {
  it('no chunk exceeds the budget and the blocks stay whole and in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 400, size: 'max' }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 400 }),
        (blocks, budget) => {
          const chunks = chunkTranscript(blocks, budget, estimator);
          for (const c of chunks) expect(estimator.text(c)).toBeLessThanOrEqual(budget);
          // Nothing lost or reordered (the generated blocks hold no line breaks).
          expect(chunks.join('\n\n').replaceAll('\n\n', '')).toBe(blocks.join(''));
          // A block that fits the budget is never cut.
          const maxBlock = Math.max(...blocks.map((b) => estimator.text(b)));
          if (maxBlock <= budget) expect(chunks.join('\n\n')).toBe(blocks.join('\n\n'));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('holds for a non-additive estimator (a word counter)', () => {
    const words = makeEstimator('words', (t) => t.split(/\s+/).filter(Boolean).length);
    const blocks = Array.from({ length: 50 }, (_, i) => `block ${i} ${'w '.repeat(i % 17)}`);
    for (const c of chunkTranscript(blocks, 30, words)) expect(words.text(c)).toBeLessThanOrEqual(30);
  });

  it('splits a single 1.5M-character block into pieces that each fit', () => {
    const huge = `${'line of log output\n'.repeat(80_000)}`.slice(0, 1_500_000);
    const pieces = splitText(huge, 10_000, estimator);
    expect(pieces.join('')).toBe(huge);
    for (const p of pieces) expect(estimator.text(p)).toBeLessThanOrEqual(10_000);
    expect(pieces.length).toBeGreaterThanOrEqual(38);
  });

  it('rejects a budget below one token', () => {
    expect(() => chunkTranscript(['x'], 0, estimator)).toThrow(RangeError);
  });
});

describe('summarizer input for a session at 130% of the window (TESTING.md item 3)', () => {
  it('the transcript is chunked so that every chunk request fits the window', () => {
    const window = 32_000;
    const messages = [];
    // About 41,600 tokens of conversation: 130% of a 32k window.
    for (let i = 0; i < 30; i++) {
      messages.push(user(`step ${i}: ${'please look at this carefully '.repeat(40)}`));
      messages.push(
        assistant(
          `done ${i} ${'explanation '.repeat(300)}`,
          tool('bash', { command: `run ${i}` }, 'y'.repeat(1_000)),
        ),
      );
    }
    const log = entries(messages);
    const total = log.reduce((a, e) => a + e.tokens, 0);
    expect(total).toBeGreaterThan(window * 1.3);
    const plan = planCompaction(log, { keepNone: true });
    if (isNothingToCompact(plan)) throw new Error(plan.reason);
    const request = buildSummaryRequest(plan);
    expect(fitsWindow(request, window, estimator, 4_000)).toBe(false);
    const overhead = requestTokens({ ...request, transcript: '' }, estimator);
    const budget = window - 4_000 - overhead;
    const chunks = chunkTranscript(renderBlocks(plan.toSummarize), budget, estimator);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks)
      expect(fitsWindow({ ...request, transcript: chunk }, window, estimator, 4_000)).toBe(true);
  });
});
