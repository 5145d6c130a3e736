import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterStepDecision,
  type BudgetConfig,
  beforeTurnDecision,
  budgetFromPreset,
  resolveBudget,
  usableBudget,
} from '../../src/budget/index.js';
import { ConfigError } from '../../src/model/errors.js';
import type { Usage } from '../../src/model/session.js';
import { hybridEstimate } from '../../src/tokens/calibration.js';
import { lookupModel } from '../../src/tokens/models.js';
import { normalizeUsage } from '../../src/tokens/usage.js';

const usage = (inputTotal: number, output = 0, cacheRead = 0): Usage => ({
  inputTotal,
  cacheRead,
  cacheWrite: 0,
  output,
  reasoning: 0,
});

describe('usableBudget (seed 001 §3.1 with A001-02 zero rules)', () => {
  it.each<[string, BudgetConfig, number | null]>([
    [
      '200k window, 64k max output: the 32k cap is reserved',
      { contextWindow: 200_000, maxOutput: 64_000 },
      168_000,
    ],
    [
      '200k window, 8,192 max output: the smaller output is reserved',
      { contextWindow: 200_000, maxOutput: 8_192 },
      191_808,
    ],
    ['128k window, no max output: the cap (A000-15: 96,000)', { contextWindow: 128_000 }, 96_000],
    ['max output 0 means unknown: the cap', { contextWindow: 128_000, maxOutput: 0 }, 96_000],
    [
      'input limit preferred (GPT-5: 272k of 400k)',
      { contextWindow: 400_000, maxOutput: 128_000, inputLimit: 272_000 },
      272_000,
    ],
    [
      'input limit 0 means absent: the formula',
      { contextWindow: 128_000, maxOutput: 16_384, inputLimit: 0 },
      111_616,
    ],
    [
      'context 0 is unlimited, checked before the input limit',
      { contextWindow: 0, inputLimit: 272_000 },
      null,
    ],
    ['a configured output cap', { contextWindow: 100_000, maxOutput: 50_000, outputCap: 10_000 }, 90_000],
    ['64k window, no max output: the cap still fits', { contextWindow: 64_000 }, 32_000],
    ['16k window, no max output: a quarter is held back, not the 32k cap', { contextWindow: 16_384 }, 12_288],
    ['16k window with a known max output: that output', { contextWindow: 16_384, maxOutput: 8_192 }, 8_192],
  ])('%s', (_name, cfg, want) => {
    expect(usableBudget(cfg)).toBe(want);
  });
});

describe('resolveBudget: limits and configuration errors', () => {
  it('takes the smallest enabled limit', () => {
    // DESIGN default: 0.8 × window or the usable budget, whichever comes first.
    const a = resolveBudget({ contextWindow: 200_000, maxOutput: 64_000 });
    expect(a.limits).toEqual({ usable: 168_000, threshold: 160_000 });
    expect([a.limit, a.limitKind]).toEqual([160_000, 'threshold']);
    const b = resolveBudget({ contextWindow: 128_000 });
    expect([b.limit, b.limitKind]).toEqual([96_000, 'usable']);
    const c = resolveBudget({ contextWindow: 200_000, threshold: 0, reserve: 20_000, absolute: 150_000 });
    expect(c.limits).toEqual({ usable: 168_000, reserve: 180_000, absolute: 150_000 });
    expect([c.limit, c.limitKind]).toEqual([150_000, 'absolute']);
  });

  it('keeps fractional thresholds exact', () => {
    expect(resolveBudget({ contextWindow: 200_000, threshold: 0.85, usableLimit: false }).limit).toBe(
      170_000,
    );
    expect(resolveBudget({ contextWindow: 100_001, threshold: 0.8, usableLimit: false }).limit).toBeCloseTo(
      80_000.8,
      6,
    );
  });

  it.each<[string, BudgetConfig, RegExp]>([
    [
      'usable ≤ 0: 16k window with 16k max output (A001-17)',
      { contextWindow: 16_000, maxOutput: 16_000 },
      /every step would overflow/,
    ],
    [
      'usable < 0: 16k window, 20k output',
      { contextWindow: 16_000, maxOutput: 20_000, threshold: 0 },
      /every step/,
    ],
    [
      'window ≤ reserve (A002-11)',
      { contextWindow: 20_000, reserve: 20_000, usableLimit: false },
      /every turn would compact/,
    ],
    [
      'window below reserve',
      { contextWindow: 15_000, reserve: 20_000, usableLimit: false },
      /every turn would compact/,
    ],
    ['negative threshold (A003-07)', { contextWindow: 128_000, threshold: -0.1 }, /threshold is a fraction/],
    ['threshold above 1 (A003-07)', { contextWindow: 128_000, threshold: 1.2 }, /threshold is a fraction/],
    ['NaN threshold', { contextWindow: 128_000, threshold: Number.NaN }, /threshold/],
    [
      'negative absolute threshold (A004-11)',
      { contextWindow: 128_000, absolute: -1 },
      /absolute threshold must be/,
    ],
    ['negative window', { contextWindow: -1 }, /contextWindow/],
    ['input limit above the window', { contextWindow: 100_000, inputLimit: 200_000 }, /inputLimit/],
  ])('refuses %s', (_name, cfg, message) => {
    // Said to users: no internal reading ids.
    expect(() => resolveBudget(cfg)).not.toThrow(/\b[ACX]0\d\d-\d+\b/);
    expect(() => resolveBudget(cfg)).toThrow(ConfigError);
    expect(() => resolveBudget(cfg)).toThrow(message);
  });

  it('accepts a tiny window when the usable formula is not a limit (seed 003 on a 16k model)', () => {
    const b = resolveBudget({ contextWindow: 16_000, maxOutput: 16_000, usableLimit: false });
    expect([b.limit, b.limitKind, b.usable]).toEqual([12_800, 'threshold', 0]);
  });
});

describe('afterStepDecision (seeds 000/001: input + cache read + output, strict >)', () => {
  const b001 = budgetFromPreset('001', { contextWindow: 200_000, maxOutput: 64_000 });

  it('compacts strictly above the usable budget and reports its numbers', () => {
    const at = afterStepDecision(usage(160_000, 8_000), b001);
    expect(at).toMatchObject({
      compact: false,
      reason: 'under-limit',
      tokens: 168_000,
      limit: 168_000,
      usable: 168_000,
    });
    const over = afterStepDecision(usage(160_000, 8_001), b001);
    expect(over).toMatchObject({
      compact: true,
      reason: 'over-usable',
      tokens: 168_001,
      limit: 168_000,
      limitKind: 'usable',
      usable: 168_000,
      contextWindow: 200_000,
      comparison: '>',
      source: 'usage',
      limits: { usable: 168_000 },
    });
    expect(over.usage).toEqual(usage(160_000, 8_001));
  });

  it('counts cached tokens once for OpenAI and at all for Anthropic', () => {
    const openai = normalizeUsage({
      prompt_tokens: 165_000,
      completion_tokens: 2_000,
      prompt_tokens_details: { cached_tokens: 150_000 },
    });
    const anthropic = normalizeUsage({
      input_tokens: 15_000,
      cache_read_input_tokens: 150_000,
      output_tokens: 2_000,
    });
    for (const u of [openai, anthropic]) {
      expect(afterStepDecision(u, b001)).toMatchObject({ compact: false, tokens: 167_000 });
    }
    const bigger = normalizeUsage({
      input_tokens: 17_000,
      cache_read_input_tokens: 150_000,
      output_tokens: 2_000,
    });
    expect(afterStepDecision(bigger, b001)).toMatchObject({ compact: true, tokens: 169_000 });
  });

  it('counts the prompt only when asked', () => {
    expect(afterStepDecision(usage(168_000, 50_000), b001, { countOutput: false })).toMatchObject({
      compact: false,
      tokens: 168_000,
    });
  });

  it('never compacts with auto off, with a window of 0, or with no limit enabled', () => {
    expect(afterStepDecision(usage(999_999), { ...b001, auto: false })).toMatchObject({
      compact: false,
      reason: 'disabled',
      limit: 168_000,
    });
    expect(afterStepDecision(usage(999_999), { contextWindow: 0, maxOutput: 64_000 })).toMatchObject({
      compact: false,
      reason: 'unlimited',
      limit: null,
      usable: null,
    });
    expect(afterStepDecision(usage(999_999), { contextWindow: 0, auto: false }).reason).toBe('disabled');
    const none = { contextWindow: 200_000, threshold: 0, usableLimit: false };
    expect(afterStepDecision(usage(999_999), none)).toMatchObject({
      compact: false,
      reason: 'disabled',
      limit: null,
    });
  });
});

describe('beforeTurnDecision', () => {
  it('seed 003: 0.8 × the 128,000 fallback for an unknown model, strict >', () => {
    const model = lookupModel('some-unlisted-model');
    const b = resolveBudget(budgetFromPreset('003', model));
    expect(b.limit).toBe(102_400);
    expect(beforeTurnDecision(102_400, b)).toMatchObject({
      compact: false,
      reason: 'under-limit',
      source: 'estimate',
    });
    expect(beforeTurnDecision(102_401, b)).toMatchObject({
      compact: true,
      reason: 'over-threshold',
      limit: 102_400,
    });
  });

  it('seed 003 counts the hybrid estimate and carries it', () => {
    const b = budgetFromPreset('003', lookupModel('gpt-4o'));
    const estimate = hybridEstimate({
      lastUsage: { usage: usage(100_000, 900), afterSeq: 3 },
      addedSinceUsage: 2_000,
      activeRaw: 80_000,
      overheadRaw: 0,
      calibration: { ratio: 1.25, residual: 0, overheadRaw: 0, samples: 4 },
    });
    const d = beforeTurnDecision(estimate, b);
    expect(d).toMatchObject({ compact: true, tokens: 102_500, reason: 'over-threshold', estimate });
  });

  it('seed 004: absolute 200,000 with ≥; 0 disables', () => {
    const b = budgetFromPreset('004', lookupModel('gpt-4.1'));
    expect(beforeTurnDecision(199_999, b)).toMatchObject({ compact: false, limit: 200_000 });
    expect(beforeTurnDecision(200_000, b)).toMatchObject({
      compact: true,
      reason: 'over-absolute',
      comparison: '>=',
    });
    expect(beforeTurnDecision(200_000, { ...b, comparison: '>' }).compact).toBe(false);
    expect(beforeTurnDecision(10_000_000, { ...b, absolute: 0 })).toMatchObject({
      compact: false,
      reason: 'disabled',
    });
  });

  it('seed 004 after a step: prompt + completion of the last call', () => {
    const b = budgetFromPreset('004', lookupModel('gpt-4.1'));
    expect(afterStepDecision(usage(199_000, 1_000), b)).toMatchObject({ compact: true, tokens: 200_000 });
  });

  it('seed 002: window − 20,000 reserve, strict >', () => {
    const b = budgetFromPreset('002', { contextWindow: 200_000, maxOutput: 64_000 });
    expect(beforeTurnDecision(180_000, b)).toMatchObject({ compact: false, limit: 180_000 });
    expect(beforeTurnDecision(180_001, b)).toMatchObject({ compact: true, reason: 'over-reserve' });
  });

  it('refuses an impossible configuration passed unresolved', () => {
    expect(() => beforeTurnDecision(1, { contextWindow: 16_000, maxOutput: 16_000 })).toThrow(ConfigError);
  });
});

describe('property: a decision is exactly the comparison with the smallest enabled limit', () => {
  const config = fc.record({
    contextWindow: fc.integer({ min: 50_000, max: 2_000_000 }),
    maxOutput: fc.option(fc.integer({ min: 0, max: 40_000 }), { nil: undefined }),
    threshold: fc.option(fc.constantFrom(0, 0.5, 0.8, 0.9, 1), { nil: undefined }),
    absolute: fc.option(fc.integer({ min: 0, max: 3_000_000 }), { nil: undefined }),
    reserve: fc.option(fc.integer({ min: 0, max: 40_000 }), { nil: undefined }),
    usableLimit: fc.option(fc.boolean(), { nil: undefined }),
    auto: fc.option(fc.boolean(), { nil: undefined }),
    comparison: fc.option(fc.constantFrom('>' as const, '>=' as const), { nil: undefined }),
  });
  it('holds for random budgets and token counts', () => {
    fc.assert(
      fc.property(config, fc.integer({ min: 0, max: 3_000_000 }), (cfg, tokens) => {
        const b = resolveBudget(cfg);
        const enabled = Object.values(b.limits);
        const d = beforeTurnDecision(tokens, b);
        if (cfg.auto === false || enabled.length === 0) {
          expect(d.compact).toBe(false);
          expect(d.reason).toBe('disabled');
          return;
        }
        const min = Math.min(...enabled);
        expect(d.limit).toBe(min);
        expect(d.compact).toBe(cfg.comparison === '>=' ? tokens >= min : tokens > min);
        expect(d.reason).toBe(d.compact ? `over-${d.limitKind}` : 'under-limit');
        // Monotone: more tokens never un-compacts.
        if (d.compact) expect(beforeTurnDecision(tokens + 1, b).compact).toBe(true);
      }),
    );
  });
});
