import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import type { FilePart, Part } from '../../src/model/parts.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';
import {
  countWithTokenizer,
  type EstimatorName,
  estimatorByName,
  exactEstimator,
} from '../../src/tokens/exact.js';

describe('exactEstimator', () => {
  const o200k = exactEstimator();
  const cl100k = exactEstimator({ encoding: 'cl100k_base' });

  it('counts BPE tokens of the chosen encoding', () => {
    expect(o200k.name).toBe('exact:o200k_base');
    expect(o200k.text('hello world')).toBe(2);
    expect(o200k.text('')).toBe(0);
    // The encodings differ on some text (o200k merges more).
    const text = 'Привет, как дела? これはテストです。';
    expect(o200k.text(text)).toBeLessThan(cl100k.text(text));
  });

  it('counts special-token strings in user text as plain text instead of throwing', () => {
    expect(o200k.text('see <|endoftext|> here')).toBeGreaterThan(3);
  });

  it('costs images and files a fixed estimate, never their base64 length', () => {
    const huge = 'iVBORw0KGgo'.repeat(300_000); // ~3.3 MB of base64
    const image: FilePart = { type: 'file', mediaType: 'image/png', data: huge };
    expect(o200k.part(image)).toBe(1_000);
    expect(exactEstimator({ fileTokens: 1_500 }).part(image)).toBe(1_500);
    const tool: Part = {
      type: 'tool',
      callId: 'c',
      name: 'shot',
      input: {},
      state: 'completed',
      output: 'ok',
      attachments: [image, image],
    };
    expect(o200k.part(tool)).toBe(o200k.text('ok') + 2_000);
  });

  it('caps a part only when asked (maxTokensPerPart), counting everything by default', () => {
    const big = 'lorem ipsum dolor sit amet '.repeat(60_000); // 1.6M chars
    const tool: Part = {
      type: 'tool',
      callId: 'c',
      name: 'cat',
      input: { path: 'a' },
      state: 'completed',
      output: big,
    };
    expect(exactEstimator({ maxTokensPerPart: 50_000 }).part(tool)).toBe(50_000);
    expect(exactEstimator({ maxTokensPerPart: 10_000 }).part({ type: 'text', text: big })).toBe(10_000);
    // By default a part counts what it holds; slices agree with whole-text counting within a token
    // or two per slice.
    const whole = o200k.text(big);
    expect(Math.abs(o200k.part(tool) - whole)).toBeLessThanOrEqual(whole / 1_000);
    expect(Math.abs(whole - 5 * 60_000)).toBeLessThanOrEqual(2); // 5 tokens a repeat, plus the edges
    const sliced = countWithTokenizer('o200k_base', big, Number.MAX_SAFE_INTEGER);
    expect(Math.abs(sliced - whole)).toBeLessThanOrEqual(2 * Math.ceil(big.length / 65_536));
  });

  it('agrees with the heuristic on message framing rules', () => {
    const m = { role: 'user' as const, parts: [{ type: 'text' as const, text: 'hello world' }] };
    expect(o200k.message(m)).toBe(2 + 4);
    expect(heuristicEstimator().message(m)).toBe(3 + 4);
  });
});

describe('estimatorByName', () => {
  it('builds the named estimator with options', () => {
    expect(estimatorByName('heuristic').text('12345678')).toBe(2);
    expect(estimatorByName('exact').name).toBe('exact:o200k_base');
    expect(estimatorByName('exact', { encoding: 'cl100k_base' }).name).toBe('exact:cl100k_base');
    expect(
      estimatorByName('heuristic', { maxTokensPerPart: 1 }).part({ type: 'text', text: 'long text here' }),
    ).toBe(1);
  });

  it('refuses an unknown name', () => {
    expect(() => estimatorByName('tiktoken' as EstimatorName)).toThrow(ConfigError);
  });
});
