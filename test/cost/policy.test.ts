import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheRuleFor, withTtl } from '../../src/cost/caching.js';
import {
  compactWhileCold,
  expectedRequests,
  type PruneCostInput,
  prunePays,
  stalePrunePays,
} from '../../src/cost/policy.js';
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

describe('hiding the outputs of earlier turns', () => {
  const stale: PruneCostInput = {
    ...base,
    requestTokens: 60_000,
    growthPerRequest: 1_000,
    requestsSoFar: 20,
  };

  it('counts a saving on the requests a session of that age is likely to make: about n · ln 2 of the next n', () => {
    expect(expectedRequests(1, 1)).toBeCloseTo(0.5);
    expect(expectedRequests(40, 40)).toBeCloseTo(40 * Math.LN2, 0);
    expect(expectedRequests(40, 10)).toBeLessThan(10);
  });

  it('goes for free once the cache has expired, unless compacting while cold takes them', () => {
    const cold = { ...stale, idleMs: rule.ttlMs + 1, suffixTokens: 200_000 };
    expect(stalePrunePays(cold, 0.6)).toMatchObject({ act: true, reason: 'cache-expired', loss: 0 });
    const compacting = { ...cold, requestTokens: 0.6 * base.limit! };
    expect(stalePrunePays(compacting, 0.6)).toMatchObject({ act: false, reason: 'compaction-ahead' });
  });

  it('on a warm cache, only when the expected reads saved beat writing the rest again', () => {
    // 20k fewer at $0.30/M on ~13.9 expected requests ($0.083) against 40k rewritten at $3.45/M ($0.138).
    expect(stalePrunePays(stale, 0.6)).toMatchObject({ act: false, reason: 'does-not-pay' });
    // Behind a short suffix it pays.
    expect(stalePrunePays({ ...stale, suffixTokens: 30_000 }, 0.6)).toMatchObject({
      act: true,
      reason: 'pays',
    });
  });

  it('waits when a compaction is expected first, and never for less than a cacheable block', () => {
    const growing = { ...stale, suffixTokens: 30_000, growthPerRequest: 6_000 };
    expect(stalePrunePays(growing, 0.6)).toMatchObject({ act: false, reason: 'compaction-ahead' });
    const tiny = { ...stale, idleMs: rule.ttlMs + 1, savedTokens: rule.minTokens - 1 };
    expect(stalePrunePays(tiny, 0.6)).toMatchObject({ act: false, reason: 'too-small' });
  });
});

describe('a longer cache lifetime', () => {
  it('prices Anthropic entries that outlive 5 minutes as its 1-hour ones (2× input), and OpenAI retention at no extra charge', () => {
    const catalog = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    const hour = withTtl(rule, 60);
    expect(hour.ttlMs).toBe(3_600_000);
    expect(tokenPrices(catalog, hour).cacheWrite).toBeCloseTo(6e-6, 12);
    expect(tokenPrices(catalog, withTtl(rule, undefined)).cacheWrite).toBeCloseTo(3.75e-6, 12);
    const openai = withTtl(cacheRuleFor('openai'), 1440);
    expect(tokenPrices({ input: 5, output: 30, cacheRead: 0.5 }, openai).cacheWrite).toBeCloseTo(5e-6, 12);
  });

  it('asks Anthropic for 1-hour entries at every breakpoint when the lifetime is longer than 5 minutes', async () => {
    const { openSession } = await import('../../src/session/index.js');
    const { memoryStore } = await import('../../src/store/index.js');
    const marks = async (ttlMinutes?: number) => {
      const session = await openSession(memoryStore(), 's', {
        model: 'claude-sonnet-4-5',
        system: 'You are terse.',
        ...(ttlMinutes ? { cache: { ttlMinutes } } : {}),
      });
      await session.append({ role: 'user', parts: [{ type: 'text', text: 'Hello.' }] });
      const { messages } = await session.prepare({ format: 'anthropic' });
      const json = JSON.stringify(messages);
      return [...json.matchAll(/"cache_control":(\{[^}]*\})/g)].map((m) => m[1]);
    };
    expect(await marks()).toEqual(['{"type":"ephemeral"}', '{"type":"ephemeral"}']);
    expect(await marks(60)).toEqual(['{"type":"ephemeral","ttl":"1h"}', '{"type":"ephemeral","ttl":"1h"}']);
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
