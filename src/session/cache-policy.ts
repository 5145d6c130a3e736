import { cacheRuleFor, withTtl } from '../cost/caching.js';
import {
  type CacheState,
  compactWhileCold,
  type PruneCostInput,
  prunePays,
  stalePrunePays,
} from '../cost/policy.js';
import { tokenPrices } from '../cost/price.js';
import type { Entry } from '../model/entry.js';
import { reportedUsage } from '../model/reported-usage.js';
import {
  type PrunePlan,
  type PruneScope,
  planPruneScan,
  type ResolvedPruneOptions,
  startsPruneTurn,
} from '../prune/index.js';
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
  const rule = withTtl(cacheRuleFor(modelInfo.provider, model), cache.ttlMinutes);
  return { rule, prices: tokenPrices(modelInfo.prices, rule) };
}

/** Milliseconds since the newest reply (found from the end: a step or two back), null when none. */
function idleMs({ config, active }: CacheInput): number | null {
  const last = active.findLast((e) => e.kind === 'message' && e.message.role === 'assistant');
  return last ? Math.max(0, config.now() - last.createdAt) : null;
}

/**
 * The session's prompt-cache figures for a prune decision; null when the rules are off. Counting
 * the window's requests reads the window, so it is done only once a planned prune has marks.
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

/** A planned prune's figures for the cost rules: what it saves and what it makes the provider write again. */
function pruneCost(
  state: CacheState,
  estimate: TokenEstimate,
  newestFirst: Iterable<Entry>,
  plan: PrunePlan,
): PruneCostInput {
  // What is written again: the request from the oldest pruned output on (read newest first, so
  // only that suffix is visited).
  const marked = new Set(plan.marks.map((m) => m.entryId));
  let suffixRaw = 0;
  for (const e of newestFirst) {
    suffixRaw += e.tokens;
    if (marked.delete(e.id) && marked.size === 0) break;
  }
  return {
    ...state,
    savedTokens: plan.prunableTokens * estimate.ratio,
    suffixTokens: suffixRaw * estimate.ratio,
  };
}

/**
 * Whether the outputs of turns before the protected ones are worth looking at this turn: only
 * when the cost rules are on and either a turn has just begun (the set of such outputs grows only
 * then) or the cache has expired (hiding them is free). Both read O(1) figures, so the window is
 * scanned at most once per user turn on a warm cache.
 */
export function staleCheckDue(input: CacheInput): boolean {
  const settings = cacheSettings(input);
  if (settings === null) return false;
  const newest = input.active.at(-1);
  if (newest?.kind === 'message' && startsPruneTurn(newest.message, 'real')) return true;
  const idle = idleMs(input);
  return idle !== null && idle > settings.rule.ttlMs;
}

/**
 * The per-turn batch to apply, if any. With the cost rules on: every output older than the
 * protected turns when hiding them is free or pays (see `stalePrunePays`), else the threshold
 * plan when it pays for the cache it invalidates or the trigger is near; with them off, the
 * threshold plan.
 */
export function batchToApply(
  input: CacheInput,
  scope: PruneScope,
  config: ResolvedPruneOptions,
  plan: PrunePlan,
): PrunePlan | null {
  const threshold = plan.prune && plan.marks.length > 0 ? plan : null;
  if (cacheSettings(input) === null) return threshold;
  // Counted once a plan has marks: most turns plan none.
  let state: CacheState | undefined;
  const costOf = (p: PrunePlan) => {
    state ??= cacheState(input)!;
    return pruneCost(state, input.estimate, scope.newestFirst(), p);
  };
  if (staleCheckDue(input)) {
    const stale = planPruneScan(scope.newestFirst(), { ...config, protectTokens: 0, minimumTokens: 0 });
    if (stale.prune && stale.marks.length > 0 && stalePrunePays(costOf(stale), COLD_COMPACT_SHARE).act)
      return stale;
  }
  if (threshold === null) return null;
  return prunePays(costOf(threshold)).act ? threshold : null;
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
