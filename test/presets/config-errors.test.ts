/**
 * Impossible configurations are refused when the session opens (ConfigError naming the setting),
 * before anything is written: a budget that would compact on every turn must never run.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/index.js';
import { openSession, PRESET_NAMES, presetOptions, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

const preset = (name: Parameters<typeof presetOptions>[0], extra: SessionOptions): SessionOptions => {
  const base = presetOptions(name);
  return { ...base, ...extra, budget: { ...base.budget, ...extra.budget } };
};

describe('config errors at openSession', () => {
  it.each<[string, SessionOptions, RegExp]>([
    ['002: window ≤ reserve (A002-11)', preset('seed-002', { limits: { contextWindow: 20_000 } }), /reserve/],
    ['002: window below the reserve', preset('seed-002', { limits: { contextWindow: 15_000 } }), /reserve/],
    ['004: negative threshold (A004-11)', preset('seed-004', { budget: { absolute: -1 } }), /absolute/],
    ['003: threshold below 0 (A003-07)', preset('seed-003', { budget: { threshold: -0.1 } }), /threshold/],
    ['003: threshold above 1 (A003-07)', preset('seed-003', { budget: { threshold: 1.5 } }), /threshold/],
    [
      '001: output reserve eats the window (A001-17)',
      preset('seed-001', { limits: { contextWindow: 16_000, maxOutput: 16_000 } }),
      /usable/,
    ],
    [
      '001: input limit above the window',
      preset('seed-001', { limits: { contextWindow: 8_000, inputLimit: 9_000 } }),
      /inputLimit/,
    ],
    ['negative window', { limits: { contextWindow: -5 } }, /contextWindow/],
    ['NaN reserve', { budget: { reserve: Number.NaN } }, /reserve/],
    ['negative prune protect', { prune: { protectTokens: -1 } }, /protectTokens/],
    ['fractional protected turns', { prune: { protectTurns: 1.5 } }, /protectTurns/],
  ])('%s', async (_label, options, message) => {
    const store = memoryStore();
    const opening = openSession(store, 's', options);
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(message);
    expect(await store.listSessions()).toEqual([]);
  });

  it('every preset opens with its own model limits (no false alarms)', async () => {
    for (const name of PRESET_NAMES) {
      for (const model of ['gpt-4o', 'claude-sonnet-4-20250514', 'unknown-model']) {
        const session = await openSession(memoryStore(), 's', { ...presetOptions(name), model });
        expect(session.config.budget.contextWindow).toBeGreaterThan(0);
      }
    }
  });

  it('limits that merely disable compaction are accepted, not refused', async () => {
    for (const options of [
      preset('seed-004', { budget: { absolute: 0 } }),
      preset('seed-001', { limits: { contextWindow: 0 } }),
      preset('seed-001', { budget: { auto: false } }),
    ]) {
      const session = await openSession(memoryStore(), 's', options);
      expect(session.config.budget.off).not.toBeNull();
    }
  });
});
