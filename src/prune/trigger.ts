import type { ResolvedPruneOptions } from './options.js';

export type PruneTriggerOptions = Pick<
  ResolvedPruneOptions,
  'protectTokens' | 'minimumTokens' | 'crossing' | 'minimumComparison'
>;

/**
 * The O(1) gate in front of `planPrune`, so a turn does not rescan the window when pruning cannot be
 * due. Contract: when it returns false, `planPrune` over the same entries would not prune; it only
 * saves work and never changes an outcome.
 *
 * `unprunedToolTokens` is the session's running total of finished, unpruned tool-output estimates
 * over the entries the planner is given (SessionState.unprunedToolTokens: add each new finished tool
 * part's `partTokens`, subtract `plan.prunableTokens` after a prune). It may hold more than the
 * planner counts (protected turns and tools); it must not hold less.
 *
 * With the default crossing ('protect') the window keeps at least `protectTokens`, so a plan can
 * only beat the minimum when the total exceeds `protectTokens + minimumTokens`. With 'prune' (seed
 * 001) the window may keep less than `protectTokens` (down to nothing when the newest part alone is
 * over it), so the only safe gate is the total beating `minimumTokens`: opencode plans after every
 * loop anyway.
 *
 * Why pruning happens in batches (prompt caches): a prune marks every eligible
 * part older than the protect window, so the total falls back to about `protectTokens` (plus what
 * protected turns and tools hold). The planner never marks `minimumTokens` or less, so the next
 * prune needs more than `minimumTokens` of output to have left the window, i.e. roughly that much
 * new output. The prompt prefix changes in one step per crossing of the threshold, not a little
 * every turn. When protected turns or tools hold much output the gate may open on turns where the
 * plan finds too little: that costs one scan of the active window and changes nothing.
 */
export function shouldPlanPrune(unprunedToolTokens: number, opts: PruneTriggerOptions): boolean {
  const threshold =
    opts.crossing === 'protect' ? opts.protectTokens + opts.minimumTokens : opts.minimumTokens;
  return opts.minimumComparison === '>' ? unprunedToolTokens > threshold : unprunedToolTokens >= threshold;
}
