import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { MODEL_TABLE } from '../../src/tokens/model-table.js';
import {
  FALLBACK_CONTEXT_WINDOW,
  knownModelIds,
  lookupModel,
  registerModel,
} from '../../src/tokens/models.js';

describe('lookupModel', () => {
  it("has seed 003's table with seed 003's windows", () => {
    const seed003: [string, number][] = [
      ['gpt-4o', 128_000],
      ['gpt-4o-mini', 128_000],
      ['gpt-4.1', 1_000_000],
      ['gpt-4.1-mini', 1_000_000],
      ['claude-sonnet-4-20250514', 200_000],
      ['claude-opus-4-20250514', 200_000],
      ['claude-haiku-3-20250307', 200_000],
    ];
    for (const [id, window] of seed003) {
      expect(lookupModel(id)).toMatchObject({ id, contextWindow: window, known: true });
    }
  });

  it('falls back to 128,000 for unknown ids, flagged unknown (seed 003)', () => {
    expect(lookupModel('my-local-model')).toEqual({
      id: 'my-local-model',
      contextWindow: FALLBACK_CONTEXT_WINDOW,
      known: false,
    });
    expect(FALLBACK_CONTEXT_WINDOW).toBe(128_000);
  });

  it('matches exactly, never by prefix (A003-08)', () => {
    expect(lookupModel('gpt-4o-mini-tts').known).toBe(false);
    expect(lookupModel('GPT-4O').known).toBe(false);
    expect(lookupModel('claude-sonnet-4-5-20250929-v2').known).toBe(false);
  });

  it('knows current models with provider limits, dated ids and aliases', () => {
    expect(lookupModel('gpt-5')).toMatchObject({
      contextWindow: 400_000,
      maxOutput: 128_000,
      inputLimit: 272_000,
    });
    expect(lookupModel('gpt-5-mini-2025-08-07').inputLimit).toBe(272_000);
    expect(lookupModel('claude-sonnet-4-5')).toMatchObject({ contextWindow: 200_000, maxOutput: 64_000 });
    expect(lookupModel('claude-sonnet-4-5-20250929')).toEqual({
      ...lookupModel('claude-sonnet-4-5'),
      id: 'claude-sonnet-4-5-20250929',
    });
    expect(lookupModel('claude-opus-4-1-20250805').maxOutput).toBe(32_000);
    expect(lookupModel('claude-haiku-4-5').maxOutput).toBe(64_000);
    expect(lookupModel('claude-3-5-haiku-latest').maxOutput).toBe(8_192);
    expect(lookupModel('gemini-2.5-flash-lite')).toMatchObject({
      contextWindow: 1_048_576,
      maxOutput: 65_536,
    });
    expect(lookupModel('gemini-1.5-pro').contextWindow).toBe(2_097_152);
    expect(lookupModel('o3-mini').contextWindow).toBe(200_000);
    expect(lookupModel('deepseek-reasoner').known).toBe(true);
    expect(lookupModel('meta-llama/Llama-3.3-70B-Instruct').contextWindow).toBe(131_072);
  });

  it('applies caller overrides over the table and for unknown models', () => {
    expect(lookupModel('gpt-4o', { 'gpt-4o': { contextWindow: 64_000 } })).toMatchObject({
      contextWindow: 64_000,
      maxOutput: 16_384,
      known: true,
    });
    expect(lookupModel('local', { local: { contextWindow: 32_768 } })).toEqual({
      id: 'local',
      contextWindow: 32_768,
      known: true,
    });
    expect(lookupModel('gpt-4o', { other: { contextWindow: 1 } }).contextWindow).toBe(128_000);
    expect(() => lookupModel('x', { x: { contextWindow: -5 } })).toThrow(ConfigError);
  });

  it('registers models for the process, overrides still winning', () => {
    registerModel('acme-coder-7b', { contextWindow: 65_536, maxOutput: 8_192 });
    expect(lookupModel('acme-coder-7b')).toEqual({
      id: 'acme-coder-7b',
      contextWindow: 65_536,
      maxOutput: 8_192,
      known: true,
    });
    expect(lookupModel('acme-coder-7b', { 'acme-coder-7b': { maxOutput: 4_096 } }).maxOutput).toBe(4_096);
    expect(knownModelIds()).toContain('acme-coder-7b');
    expect(() => registerModel('bad', { contextWindow: 1.5 })).toThrow(ConfigError);
  });

  it('table rows are sane: no duplicate ids, outputs and input limits inside the window', () => {
    const seen = new Set<string>();
    for (const [ids, window, maxOutput, inputLimit] of MODEL_TABLE) {
      for (const id of ids) {
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
      expect(window).toBeGreaterThan(0);
      if (maxOutput !== undefined) expect(maxOutput).toBeLessThanOrEqual(window);
      if (inputLimit !== undefined) expect(inputLimit + (maxOutput ?? 0)).toBeLessThanOrEqual(window);
    }
  });
});
