import type { CacheRule } from './caching.js';
import type { TokenPrices } from './price.js';

/**
 * Every prune or compaction changes the prompt's prefix: the provider's cache of everything after
 * the change is lost, and the next request writes it again. These rules weigh that one-time loss
 * against what the change saves on every later request. Figures are the provider's tokens.
 */
export interface CacheState {
  /** The next request's size as it stands. */
  requestTokens: number;
  /** The compaction trigger; null when nothing triggers one. */
  limit: number | null;
  /** How much a request has grown per request since the latest compaction, on average. */
  growthPerRequest: number;
  /** Requests made since the latest compaction (or the start). */
  requestsSoFar: number;
  /** Milliseconds since the last request; null when there was none (nothing is cached). */
  idleMs: number | null;
  rule: CacheRule;
  prices: TokenPrices;
}

export interface PruneCostInput extends CacheState {
  /** What the prune removes from every later request. */
  savedTokens: number;
  /** The request from the first pruned output on, pruned outputs included: what is written again. */
  suffixTokens: number;
}

export interface CostVerdict {
  act: boolean;
  reason: 'cache-expired' | 'near-limit' | 'pays' | 'does-not-pay' | 'compaction-ahead' | 'too-small';
  /** Dollars saved over the requests expected before the next compaction. */
  gain: number;
  /** Dollars the invalidated cache costs (writing it again instead of reading it). */
  loss: number;
}

/** Requests a saving is counted over when nothing ends the session's growth (no limit). */
const HORIZON_CAP = 200;

/** Whether the cache the last request wrote has expired (or there was no request). */
export function cacheCold(s: Pick<CacheState, 'idleMs' | 'rule'>): boolean {
  return s.idleMs === null || s.idleMs > s.rule.ttlMs;
}

/**
 * Requests a saving is expected to last: until the window forces a compaction, and no longer than
 * the session has run so far (a session's end cannot be seen; one that has run n requests is as
 * likely to stop before n more as after).
 */
export function requestsAhead(s: CacheState, tokens: number): number {
  const soFar = Math.max(1, s.requestsSoFar);
  if (s.limit === null) return Math.min(HORIZON_CAP, soFar);
  const growth = Math.max(1, s.growthPerRequest);
  return Math.min(HORIZON_CAP, soFar, Math.max(1, Math.floor((s.limit - tokens) / growth)));
}

/**
 * How many of the next `horizon` requests a session that has made `soFar` is expected to make:
 * one that has run n requests is as likely to stop before n more as after, so the chance that it
 * is still going k requests on is n / (n + k). Over the next n requests that sums to about
 * n · ln 2: a saving is counted on 69% of them, not all (a prune must pay back on the requests
 * that are likely to come, not on a session that happens to run long).
 */
export function expectedRequests(soFar: number, horizon: number): number {
  const n = Math.max(1, soFar);
  let sum = 0;
  for (let k = 1; k <= Math.min(horizon, HORIZON_CAP); k++) sum += n / (n + k);
  return sum;
}

/**
 * A prune goes ahead when the cache is cold anyway, when the next requests would otherwise reach
 * the compaction trigger (a cost rule never keeps a request from fitting), or when reading
 * `savedTokens` less on every request until the next compaction saves more than writing the
 * suffix again costs.
 */
export function prunePays(input: PruneCostInput): CostVerdict {
  const { prices, savedTokens, suffixTokens, requestTokens } = input;
  const kept = Math.max(0, suffixTokens - savedTokens);
  const loss = cacheCold(input) ? 0 : kept * Math.max(0, prices.cacheWrite - prices.cacheRead);
  const gain = savedTokens * prices.cacheRead * requestsAhead(input, requestTokens - savedTokens);
  const verdict = (act: boolean, reason: CostVerdict['reason']): CostVerdict => ({ act, reason, gain, loss });
  if (cacheCold(input)) return verdict(true, 'cache-expired');
  if (input.limit !== null && requestTokens + input.growthPerRequest > input.limit)
    return verdict(true, 'near-limit');
  return gain > loss ? verdict(true, 'pays') : verdict(false, 'does-not-pay');
}

/**
 * Outputs of turns before the protected ones (earlier tasks: file reads and command runs the
 * agent has answered from) are hidden when that costs no cache or pays for the one it costs:
 *
 * - once the cache has expired the whole prompt is written again whatever is sent, so hiding them
 *   then is free — unless the window is past `soft` of the trigger, where compacting while cold
 *   (see `compactWhileCold`) takes them anyway and its summary should see them whole;
 * - on a warm cache, when reading `savedTokens` less on each request the session is expected to
 *   make (as many as it has made) beats writing the suffix again, and no compaction is expected
 *   in that time: a compaction would drop them anyway, and a prune that only postpones it keeps
 *   the larger prompt that the compaction would have cut (compacting sooner saves more).
 *
 * Never for less than the provider's smallest cached prefix: hiding less saves nothing worth a
 * lost output. Near the trigger this rule does not act; the compaction does.
 */
export function stalePrunePays(input: PruneCostInput, soft: number): CostVerdict {
  const { prices, savedTokens, suffixTokens, requestTokens, limit } = input;
  const cold = cacheCold(input);
  const kept = Math.max(0, suffixTokens - savedTokens);
  const loss = cold ? 0 : kept * Math.max(0, prices.cacheWrite - prices.cacheRead);
  const soFar = Math.min(HORIZON_CAP, Math.max(1, input.requestsSoFar));
  const gain = savedTokens * prices.cacheRead * expectedRequests(soFar, soFar);
  const verdict = (act: boolean, reason: CostVerdict['reason']): CostVerdict => ({ act, reason, gain, loss });
  if (savedTokens < input.rule.minTokens) return verdict(false, 'too-small');
  if (cold) {
    const compactsNow = limit !== null && input.idleMs !== null && requestTokens >= soft * limit;
    return compactsNow ? verdict(false, 'compaction-ahead') : verdict(true, 'cache-expired');
  }
  if (limit !== null && requestTokens + input.growthPerRequest * soFar >= limit)
    return verdict(false, 'compaction-ahead');
  return gain > loss ? verdict(true, 'pays') : verdict(false, 'does-not-pay');
}

/**
 * A compaction rewrites the whole prompt after the system prompt. Once the cache has expired that
 * rewrite costs nothing extra: past `soft` of the trigger, compacting then is cheaper than waiting
 * for the trigger and throwing away a warm cache.
 */
export function compactWhileCold(s: CacheState, soft: number): boolean {
  return s.limit !== null && s.idleMs !== null && cacheCold(s) && s.requestTokens >= soft * s.limit;
}
