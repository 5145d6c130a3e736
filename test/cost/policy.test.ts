import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheRuleFor } from '../../src/cost/caching.js';
import { compactWhileCold, type PruneCostInput, prunePays } from '../../src/cost/policy.js';
import { tokenPrices } from '../../src/cost/price.js';

const rule = cacheRuleFor('anthropic');
const prices = tokenPrices({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, rule);
const base: PruneCostInput = {
  requestTokens: 100_000,
  limit: 168_000,
  growthPerRequest: 2_000,
  requestsSoFar: 40,
  idleMs: 10_000,
  rule,
  prices,
  savedTokens: 20_000,
  suffixTokens: 60_000,
};

describe('cost-aware pruning', () => {
  it('prunes when reading less on later requests pays for writing the suffix again', () => {
    // 20k fewer tokens read at $0.30/M over 34 requests ($0.204) beats rewriting 40k at $3.45/M ($0.138).
    expect(prunePays(base)).toMatchObject({ act: true, reason: 'pays' });
    // A session only 5 requests old is not expected to last long enough to earn it back.
    expect(prunePays({ ...base, requestsSoFar: 5 })).toMatchObject({ act: false, reason: 'does-not-pay' });
    // A small batch behind a long suffix does not pay either.
    expect(prunePays({ ...base, savedTokens: 2_000 }).act).toBe(false);
  });

  it('prunes for free once the cache has expired, and always when the next request would reach the trigger', () => {
    const cold = prunePays({ ...base, savedTokens: 100, requestsSoFar: 1, idleMs: rule.ttlMs + 1 });
    expect(cold).toMatchObject({ act: true, reason: 'cache-expired', loss: 0 });
    const near = prunePays({ ...base, savedTokens: 100, requestsSoFar: 1, requestTokens: 167_000 });
    expect(near).toMatchObject({ act: true, reason: 'near-limit' });
  });

  it('never holds back a prune when the next request would go over the trigger', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 100 }),
        (requestTokens, growth, saved, soFar) => {
          const v = prunePays({
            ...base,
            requestTokens,
            growthPerRequest: growth,
            savedTokens: saved,
            requestsSoFar: soFar,
          });
          if (requestTokens + growth > base.limit!) expect(v.act).toBe(true);
        },
      ),
    );
  });

  it('compacts early only with a cold cache past the share of the trigger', () => {
    const cold = { ...base, requestTokens: 110_000, idleMs: rule.ttlMs + 1 };
    expect(compactWhileCold(cold, 0.6)).toBe(true);
    expect(compactWhileCold({ ...cold, requestTokens: 90_000 }, 0.6)).toBe(false);
    expect(compactWhileCold(base, 0.6)).toBe(false);
    expect(compactWhileCold({ ...cold, idleMs: null }, 0.6)).toBe(false);
  });
});

describe('the cache settings in a configuration file', () => {
  it('turn the cost rules and breakpoints off, and reject a bad lifetime naming the key', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadConfig } = await import('../../src/config/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'condense-cache-'));
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ cache: { costAware: false, breakpoints: false } }));
    expect(loadConfig('c.json', { cwd: dir }).options.cache).toEqual({
      costAware: false,
      breakpoints: false,
    });
    writeFileSync(join(dir, 'd.json'), JSON.stringify({ cache: { ttlMinutes: 0 } }));
    expect(() => loadConfig('d.json', { cwd: dir })).toThrow(/cache\.ttlMinutes/);
  });
});
