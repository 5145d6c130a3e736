import { describe, expect, it } from 'vitest';
import { sentenceSpans } from '../../src/compact/sentences.js';

const pieces = (text: string) => sentenceSpans(text).map((s) => text.slice(s.start, s.end));

describe('sentence pieces', () => {
  it('split after sentence marks and at line breaks, cut long sentences between words', () => {
    expect(pieces('It failed. Then it passed!\nDone? yes')).toEqual([
      'It failed.',
      'Then it passed!',
      'Done?',
      'yes',
    ]);
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    for (const p of pieces(long)) {
      expect(p.length).toBeLessThanOrEqual(400);
      expect(long).toContain(` ${p} `.trim());
      expect(/^word\d+$/.test(p.split(' ').at(-1)!)).toBe(true);
    }
  });

  it('a run without a space past the limit is no word: the words before it stay, the run shows only its start', () => {
    const dotted = 'Plan the migration of the billing service'.padEnd(210_000, '.');
    expect(pieces(dotted)).toEqual([`Plan the migration of the billing service${'.'.repeat(17)}`]);
    const blob = `Read the image\n${'QUJD'.repeat(1_000)}\nIt shows a cat.`;
    expect(pieces(blob)).toEqual(['Read the image', 'It shows a cat.']);
  });

  it('a run of sentence marks ends a sentence once', () => {
    expect(pieces('Wait... what?! Really.')).toEqual(['Wait...', 'what?!', 'Really.']);
  });
});
