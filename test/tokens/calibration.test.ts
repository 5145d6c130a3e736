import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../src/model/session.js';
import {
  type CalibrationState,
  hybridEstimate,
  MAX_RATIO,
  MIN_RATIO,
  updateCalibration,
} from '../../src/tokens/calibration.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';

const usage = (inputTotal: number): Usage => ({
  inputTotal,
  cacheRead: 0,
  cacheWrite: 0,
  output: 0,
  reasoning: 0,
});
const calibrated = (c: CalibrationState, logRaw: number, overheadRaw = 0) =>
  hybridEstimate({ lastUsage: null, addedSinceUsage: 0, activeRaw: logRaw, overheadRaw, calibration: c })
    .tokens;

describe('updateCalibration', () => {
  it('learns a model counting 2.5 chars/token after ONE step', () => {
    const est = heuristicEstimator();
    const text = 'const answer = computeTheThing(input, { retries: 3 });\n'.repeat(400);
    const logRaw = est.text(text); // chars / 4
    const provider = Math.round(text.length / 2.5);
    const c = updateCalibration(undefined, { reportedInput: provider, logRaw, overheadRaw: 0 });
    expect(c.ratio).toBeCloseTo(1.6, 2);
    expect(c.residual).toBeCloseTo(0, 0);
    expect(c.samples).toBe(1);
    // The next, twice as long log is estimated right, where chars/4 is 37.5% short.
    const next = est.text(text + text);
    expect(Math.abs(calibrated(c, next) - (2 * text.length) / 2.5)).toBeLessThan(5);
  });

  it('puts an undeclared overhead that dwarfs the first log into the residual, ratio kept at 1', () => {
    // 28k tokens of system prompt and tool schemas, 300 raw tokens of user message.
    const c = updateCalibration(undefined, { reportedInput: 28_000 + 480, logRaw: 300, overheadRaw: 0 });
    expect(c.ratio).toBe(1);
    expect(c.residual).toBe(28_180);
  });

  it('converges with a fixed undeclared overhead and a varying log (noise ±1%)', () => {
    const overhead = 25_000;
    const ratio = 1.6;
    const logs = [300, 2_500, 7_000, 9_000, 16_000, 24_000, 31_000, 45_000, 52_000, 70_000];
    const noise = [1.004, 0.993, 1.008, 0.996, 1.01, 0.99, 1.002, 0.997, 1.006, 0.995];
    let c: CalibrationState | undefined;
    const errors: number[] = [];
    logs.forEach((x, i) => {
      const line = overhead + ratio * x;
      // Measured against the noiseless line: the noise itself is not something to predict.
      if (c) errors.push(Math.abs(calibrated(c, x) - line) / line);
      c = updateCalibration(c, { reportedInput: Math.round(line * noise[i]!), logRaw: x, overheadRaw: 0 });
    });
    // errors[k] is the estimate made after k + 1 samples.
    expect(errors[0]).toBeGreaterThan(0.02); // one sample cannot separate overhead and ratio
    for (const e of errors.slice(2)) expect(e).toBeLessThan(0.02);
    expect(c!.ratio).toBeGreaterThan(1.5);
    expect(c!.ratio).toBeLessThan(1.7);
    expect(c!.residual).toBeGreaterThan(overhead * 0.9);
    expect(c!.residual).toBeLessThan(overhead * 1.1);
  });

  it('recovers a mistaken first ratio (overhead hidden in a large first log) at the second sample', () => {
    // 28k overhead + 1.6 × 20k = 60k over a raw 20k: looks like ratio 3.
    let c = updateCalibration(undefined, { reportedInput: 60_000, logRaw: 20_000, overheadRaw: 0 });
    expect(c.ratio).toBeCloseTo(3, 5);
    c = updateCalibration(c, { reportedInput: 28_000 + 1.6 * 26_000, logRaw: 26_000, overheadRaw: 0 });
    expect(c.ratio).toBeCloseTo(1.6, 5);
    expect(c.residual).toBeCloseTo(28_000, 0);
  });

  it('uses the declared overhead, leaving only the undeclared part to the residual', () => {
    let c = updateCalibration(undefined, {
      reportedInput: 1.2 * 12_000 + 3_000,
      logRaw: 2_000,
      overheadRaw: 10_000,
    });
    c = updateCalibration(c, { reportedInput: 1.2 * 20_000 + 3_000, logRaw: 10_000, overheadRaw: 10_000 });
    expect(c.ratio).toBeCloseTo(1.2, 5);
    expect(c.residual).toBeCloseTo(3_000, 0);
    expect(c.overheadRaw).toBe(10_000);
    expect(calibrated(c, 30_000, 10_000)).toBe(Math.ceil(1.2 * 40_000) + 3_000);
  });

  it('clamps absurd samples and skips slopes over tiny steps', () => {
    const tiny = updateCalibration(undefined, { reportedInput: 10, logRaw: 10_000, overheadRaw: 0 });
    expect(tiny.ratio).toBe(MIN_RATIO);
    const c1 = updateCalibration(undefined, { reportedInput: 16_000, logRaw: 10_000, overheadRaw: 0 });
    // 100 raw tokens more but 5,000 provider tokens more: framing noise, not a slope.
    const c2 = updateCalibration(c1, { reportedInput: 21_000, logRaw: 10_100, overheadRaw: 0 });
    expect(c2.ratio).toBe(c1.ratio);
    expect(c2.samples).toBe(2);
    // A prompt that shrank while the log grew (provider dropped old reasoning): clamped, not negative.
    const c3 = updateCalibration(c2, { reportedInput: 15_000, logRaw: 14_000, overheadRaw: 0 });
    expect(c3.ratio).toBeGreaterThanOrEqual(MIN_RATIO);
  });

  it('property: two noiseless samples recover any ratio and overhead exactly', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 3, noNaN: true }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 100, max: 40_000 }),
        fc.array(fc.integer({ min: 2_000, max: 30_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1_000, max: 100_000 }),
        (ratio, overhead, first, steps, probe) => {
          let c: CalibrationState | undefined;
          let x = first;
          for (const dx of [0, ...steps]) {
            x += dx;
            c = updateCalibration(c, { reportedInput: overhead + ratio * x, logRaw: x, overheadRaw: 0 });
          }
          expect(c!.ratio).toBeCloseTo(ratio, 6);
          expect(Math.abs(calibrated(c!, probe) - (overhead + ratio * probe))).toBeLessThanOrEqual(1.01);
        },
      ),
    );
  });

  it('property: ratio stays in range and the residual never removes more than the declared overhead', () => {
    const obs = fc.record({
      reportedInput: fc.integer({ min: 0, max: 2_000_000 }),
      logRaw: fc.integer({ min: 0, max: 1_000_000 }),
      overheadRaw: fc.integer({ min: 0, max: 50_000 }),
    });
    fc.assert(
      fc.property(fc.array(obs, { minLength: 1, maxLength: 20 }), (all) => {
        let c: CalibrationState | undefined;
        all.forEach((o, i) => {
          c = updateCalibration(c, o);
          expect(c.samples).toBe(i + 1);
          expect(c.ratio).toBeGreaterThanOrEqual(MIN_RATIO);
          expect(c.ratio).toBeLessThanOrEqual(MAX_RATIO);
          expect(c.residual).toBeGreaterThanOrEqual(-c.ratio * o.overheadRaw);
          expect(calibrated(c, 0, 0)).toBeGreaterThanOrEqual(0);
        });
      }),
    );
  });
});

describe('hybridEstimate', () => {
  const cal: CalibrationState = { ratio: 1.5, residual: 20_000, overheadRaw: 0, samples: 3 };

  it('with a usage: reported prompt + ratio × what was added since (the reply included)', () => {
    const e = hybridEstimate({
      lastUsage: { usage: usage(90_000), afterSeq: 12 },
      addedSinceUsage: 3_001,
      activeRaw: 50_000,
      overheadRaw: 5_000,
      calibration: cal,
    });
    expect(e).toEqual({
      tokens: 90_000 + 4_502,
      method: 'usage+delta',
      base: 90_000,
      delta: 4_502,
      ratio: 1.5,
    });
  });

  it('without a usage (first call, after a compaction): calibrated view + overhead + residual', () => {
    const e = hybridEstimate({
      lastUsage: null,
      addedSinceUsage: 0,
      activeRaw: 10_000,
      overheadRaw: 2_000,
      calibration: cal,
    });
    expect(e).toEqual({ tokens: 38_000, method: 'calibrated', base: 20_000, delta: 18_000, ratio: 1.5 });
  });

  it('without any calibration: the raw estimate itself (ratio 1)', () => {
    const e = hybridEstimate({ lastUsage: null, addedSinceUsage: 0, activeRaw: 1_234, overheadRaw: 766 });
    expect(e).toEqual({ tokens: 2_000, method: 'calibrated', base: 0, delta: 2_000, ratio: 1 });
    const u = hybridEstimate({
      lastUsage: { usage: usage(500), afterSeq: 0 },
      addedSinceUsage: 0,
      activeRaw: 9,
      overheadRaw: 0,
    });
    expect(u.tokens).toBe(500);
  });
});
