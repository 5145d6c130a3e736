import { cacheRuleFor } from '../cost/caching.js';
import { type CacheState, compactWhileCold, prunePays } from '../cost/policy.js';
import { tokenPrices } from '../cost/price.js';
import type { Entry } from '../model/entry.js';
import { reportedUsage } from '../model/reported-usage.js';
import type { PrunePlan } from '../prune/index.js';
import type { TokenEstimate } from '../tokens/index.js';
import type { ResolvedSession } from './resolve.js';

/** Compacting early while the cache is cold starts at this share of the trigger. */
const COLD_COMPACT_SHARE = 0.6;

/** What the cost rules read of a session: its settings, its window's entries, the next request's estimate. */
export interface CacheInput {
  config: Pick<ResolvedSession, 'cache' | 'modelInfo' | 'model' | 'budget' | 'now'>;
  active: readonly Entry[];
  estimate: TokenEstimate;
}

/** The cache rule and prices the cost rules apply; null when they are off or the model has no price. */
function cacheSettings({ config }: Pick<CacheInput, 'config'>) {
  const { cache, modelInfo, model } = config;
  if (!cache.costAware || !modelInfo.prices) return null;
  const base = cacheRuleFor(modelInfo.provider, model);
  const rule = cache.ttlMinutes === undefined ? base : { ...base, ttlMs: cache.ttlMinutes * 60_000 };
  return { rule, prices: tokenPrices(modelInfo.prices, rule) };
}

/** Milliseconds since the newest reply (found from the end: a step or two back), null when none. */
function idleMs({ config, active }: CacheInput): number | null {
  const last = active.findLast((e) => e.kind === 'message' && e.message.role === 'assistant');
  return last ? Math.max(0, config.now() - last.createdAt) : null;
}

/**
 * The session's prompt-cache figures for a prune decision; null when the rules are off. Counting
 * the window's requests reads the window, so it is done only when a prune has been planned.
 */
function cacheState(input: CacheInput): CacheState | null {
  const settings = cacheSettings(input);
  if (settings === null) return null;
  let requests = 0;
  for (const e of input.active) if (e.kind === 'message' && reportedUsage(e.message)) requests++;
  return {
    requestTokens: input.estimate.tokens,
    limit: input.config.budget.limit,
    growthPerRequest: input.estimate.tokens / Math.max(1, requests),
    requestsSoFar: requests,
    idleMs: idleMs(input),
    ...settings,
  };
}

/** Whether a planned batch prune pays for the cache it invalidates (true when the rules are off). */
export function prunePaysFor(input: CacheInput, newestFirst: Iterable<Entry>, plan: PrunePlan): boolean {
  const { estimate } = input;
  const state = cacheState(input);
  if (state === null || !plan.prune) return true;
  // What is written again: the request from the oldest pruned output on (read newest first, so
  // only that suffix is visited).
  const marked = new Set(plan.marks.map((m) => m.entryId));
  let suffixRaw = 0;
  for (const e of newestFirst) {
    suffixRaw += e.tokens;
    if (marked.delete(e.id) && marked.size === 0) break;
  }
  const verdict = prunePays({
    ...state,
    savedTokens: plan.prunableTokens * estimate.ratio,
    suffixTokens: suffixRaw * estimate.ratio,
  });
  return verdict.act;
}

/** Whether to compact now because the cache has expired and the window is past the early share. */
export function compactsWhileCold(input: CacheInput): boolean {
  // Checked every turn: only O(1) figures (no count of the window's requests, which this rule
  // does not read).
  const settings = cacheSettings(input);
  if (settings === null) return false;
  const state: CacheState = {
    requestTokens: input.estimate.tokens,
    limit: input.config.budget.limit,
    growthPerRequest: 0,
    requestsSoFar: 0,
    idleMs: idleMs(input),
    ...settings,
  };
  return compactWhileCold(state, COLD_COMPACT_SHARE);
}
