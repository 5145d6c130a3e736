import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { MAKERS, MODEL_CATALOG } from '../../src/tokens/model-catalog.js';
import { MODEL_OVERRIDES } from '../../src/tokens/model-overrides.js';
import {
  FALLBACK_CONTEXT_WINDOW,
  fallbackWindowMessage,
  knownModelIds,
  lookupModel,
  modelPrices,
  registerModel,
} from '../../src/tokens/models.js';

describe('lookupModel', () => {
  it("has seed 003's models with the catalog's windows (the preset's own table is its own)", () => {
    const seed003: [string, number][] = [
      ['gpt-4o', 128_000],
      ['gpt-4o-mini', 128_000],
      ['gpt-4.1', 1_047_576],
      ['gpt-4.1-mini', 1_047_576],
      ['claude-sonnet-4-20250514', 200_000],
      ['claude-opus-4-20250514', 200_000],
    ];
    for (const [id, window] of seed003) {
      expect(lookupModel(id)).toMatchObject({ id, contextWindow: window, known: true, source: 'catalog' });
    }
    // The seed's name for Claude 3 Haiku is no provider's.
    expect(lookupModel('claude-haiku-3-20250307').known).toBe(false);
  });

  it('falls back to 128,000 for unknown ids, flagged unknown (seed 003)', () => {
    expect(lookupModel('my-local-model')).toEqual({
      id: 'my-local-model',
      contextWindow: FALLBACK_CONTEXT_WINDOW,
      known: false,
      source: 'fallback',
    });
    expect(FALLBACK_CONTEXT_WINDOW).toBe(128_000);
    expect(fallbackWindowMessage('qwen3:8b')).toMatch(
      /'qwen3:8b' is not in the model catalog.*128,000.*num_ctx/,
    );
  });

  it('never takes a longer name for a shorter one (A003-08)', () => {
    expect(lookupModel('gpt-4o-mini-tts').known).toBe(false);
    expect(lookupModel('GPT-4O').known).toBe(false);
    expect(lookupModel('claude-sonnet-4-5-20250929-v2').known).toBe(false);
    expect(lookupModel('claude-opus-4-6-extra').known).toBe(false);
  });

  it('knows current models from the catalog, with their limits and prices', () => {
    // The model the agents of 2026 run on: its real window, not the fallback.
    expect(lookupModel('claude-opus-4-6')).toMatchObject({
      contextWindow: 1_000_000,
      maxOutput: 128_000,
      known: true,
      source: 'catalog',
      provider: 'anthropic',
      prices: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    });
    expect(lookupModel('gpt-5')).toMatchObject({
      contextWindow: 400_000,
      maxOutput: 128_000,
      inputLimit: 272_000,
    });
    expect(lookupModel('claude-sonnet-4-5')).toMatchObject({ contextWindow: 200_000, maxOutput: 64_000 });
    expect(lookupModel('claude-haiku-4-5').prices).toEqual({
      input: 1,
      output: 5,
      cacheRead: 0.1,
      cacheWrite: 1.25,
    });
    expect(lookupModel('gemini-2.5-flash-lite')).toMatchObject({
      contextWindow: 1_048_576,
      maxOutput: 65_536,
    });
    expect(lookupModel('o3-mini').contextWindow).toBe(200_000);
    expect(lookupModel('deepseek-reasoner').known).toBe(true);
    expect(modelPrices('gpt-4o-mini')).toMatchObject({ input: 0.15, output: 0.6 });
    expect(modelPrices('my-local-model')).toBeUndefined();
  });

  it('reads provider-prefixed, gateway, dated and dotted ids as the same model', () => {
    const opus = lookupModel('claude-opus-4-6');
    for (const id of ['anthropic/claude-opus-4-6', 'my-gateway/claude-opus-4-6']) {
      expect(lookupModel(id)).toMatchObject({
        contextWindow: opus.contextWindow,
        prices: opus.prices,
        known: true,
      });
    }
    expect(lookupModel('openrouter/anthropic/claude-sonnet-4.5').contextWindow).toBe(200_000);
    expect(lookupModel('gpt-5-mini-2025-08-07').inputLimit).toBe(272_000);
    expect(lookupModel('gpt-4o-2024-08-06')).toMatchObject({ contextWindow: 128_000, known: true });
    expect(lookupModel('claude-sonnet-4-5-20250929')).toEqual({
      ...lookupModel('claude-sonnet-4-5'),
      id: 'claude-sonnet-4-5-20250929',
    });
    // A gateway's own entry wins over the bare model's when the gateway is named.
    const row = MODEL_CATALOG.openrouter?.['anthropic/claude-sonnet-4'];
    expect(row).toBeDefined();
    expect(lookupModel('openrouter/anthropic/claude-sonnet-4')).toMatchObject({
      provider: 'openrouter',
      contextWindow: row![0],
    });
  });

  it('takes a hosted model by the window most hosts give, not by the one that caps it lowest', () => {
    const windows = new Map<string, number[]>();
    for (const [provider, models] of Object.entries(MODEL_CATALOG)) {
      for (const [id, row] of Object.entries(models)) {
        windows.set(id, [...(windows.get(id) ?? []), MAKERS.includes(provider) ? Number.NaN : row[0]]);
      }
    }
    let checked = 0;
    for (const [id, ws] of windows) {
      if (ws.some(Number.isNaN) || new Set(ws).size < 2 || lookupModel(id).source !== 'catalog') continue;
      const counts = ws.map((w) => ws.filter((v) => v === w).length);
      const top = Math.max(...counts);
      if (counts.filter((c) => c === top).length !== top) continue; // a tie: either is right
      expect(lookupModel(id).contextWindow, id).toBe(ws[counts.indexOf(top)]);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
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
      source: 'override',
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
      source: 'registered',
    });
    expect(lookupModel('acme-coder-7b', { 'acme-coder-7b': { maxOutput: 4_096 } }).maxOutput).toBe(4_096);
    expect(knownModelIds()).toContain('acme-coder-7b');
    expect(() => registerModel('bad', { contextWindow: 1.5 })).toThrow(ConfigError);
  });

  it('override rows are sane: no duplicate ids, outputs and input limits inside the window', () => {
    const seen = new Set<string>();
    for (const [ids, window, maxOutput, inputLimit] of MODEL_OVERRIDES) {
      for (const id of ids) {
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
      expect(window).toBeGreaterThan(0);
      if (maxOutput !== undefined) expect(maxOutput).toBeLessThanOrEqual(window);
      if (inputLimit !== undefined) expect(inputLimit + (maxOutput ?? 0)).toBeLessThanOrEqual(window);
    }
    expect(MODEL_OVERRIDES.length).toBeLessThan(20);
  });

  it('catalog rows are sane: positive windows, prices never negative', () => {
    let rows = 0;
    for (const models of Object.values(MODEL_CATALOG)) {
      for (const [id, [context, output, input, ...prices]] of Object.entries(models)) {
        rows++;
        expect(Number.isInteger(context) && context > 0, id).toBe(true);
        if (input !== null) expect(input, id).toBeLessThanOrEqual(context);
        if (output !== null) expect(output, id).toBeGreaterThan(0);
        for (const p of prices) if (p !== null) expect(p, id).toBeGreaterThanOrEqual(0);
      }
    }
    expect(rows).toBeGreaterThan(500);
  });
});
