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

/** The session's prompt-cache figures for the cost rules; null when they are off or the model has no price. */
function cacheState({ config, active, estimate }: CacheInput): CacheState | null {
  const { cache, modelInfo, model, budget, now } = config;
  if (!cache.costAware || !modelInfo.prices) return null;
  const base = cacheRuleFor(modelInfo.provider, model);
  const rule = cache.ttlMinutes === undefined ? base : { ...base, ttlMs: cache.ttlMinutes * 60_000 };
  const last = active.findLast((e) => e.kind === 'message' && e.message.role === 'assistant');
  let requests = 0;
  for (const e of active) if (e.kind === 'message' && reportedUsage(e.message)) requests++;
  return {
    requestTokens: estimate.tokens,
    limit: budget.limit,
    growthPerRequest: estimate.tokens / Math.max(1, requests),
    requestsSoFar: requests,
    idleMs: last ? Math.max(0, now() - last.createdAt) : null,
    rule,
    prices: tokenPrices(modelInfo.prices, rule),
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
  const state = cacheState(input);
  return state !== null && compactWhileCold(state, COLD_COMPACT_SHARE);
}
