import type { Usage } from '../model/session.js';
import type { ModelPrices } from '../tokens/models.js';
import { type CacheRule, longWrites } from './caching.js';

/** US dollars per token, cache prices filled in from the provider's multipliers when missing. */
export interface TokenPrices {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export function tokenPrices(prices: ModelPrices, rule: CacheRule): TokenPrices {
  const m = 1e-6;
  return {
    input: prices.input * m,
    output: prices.output * m,
    cacheRead: (prices.cacheRead ?? prices.input * rule.readShare) * m,
    // A provider without a write charge bills written tokens as plain input; the catalog's write
    // price is Anthropic's 5-minute one (1.25×), its 1-hour entries cost 2×.
    cacheWrite:
      (longWrites(rule) ? prices.input * 2 : (prices.cacheWrite ?? prices.input * rule.writeShare)) * m,
  };
}

/** Token totals of one or more requests, as a bill shows them. */
export interface UsageTotals {
  requests: number;
  /** Every prompt token, cached ones included. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export const NO_USAGE: UsageTotals = { requests: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };

export function addUsage(t: UsageTotals, u: Usage): UsageTotals {
  return {
    requests: t.requests + 1,
    input: t.input + u.inputTotal,
    cacheRead: t.cacheRead + u.cacheRead,
    cacheWrite: t.cacheWrite + u.cacheWrite,
    output: t.output + u.output,
  };
}

/** Dollars of requests: uncached input, cache reads, cache writes and output each at its price. */
export function costOf(t: UsageTotals, p: TokenPrices): number {
  const uncached = t.input - t.cacheRead - t.cacheWrite;
  return uncached * p.input + t.cacheRead * p.cacheRead + t.cacheWrite * p.cacheWrite + t.output * p.output;
}

/** The share of prompt tokens read from the cache (0 with no prompt). */
export function cacheHitShare(t: Pick<UsageTotals, 'input' | 'cacheRead'>): number {
  return t.input === 0 ? 0 : t.cacheRead / t.input;
}
