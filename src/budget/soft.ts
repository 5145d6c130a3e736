import { ConfigError } from '../model/errors.js';
import type { ResolvedBudget } from './config.js';

/**
 * The soft threshold of background compaction: past it a summary of the current prefix is
 * prepared off the agent's path, so that at the trigger limit (the hard threshold) a pivot is
 * ready to apply. A share of the trigger limit — the usable budget unless a lower threshold,
 * absolute limit or reserve triggers first — so that it always falls below whichever triggers.
 */
export const DEFAULT_SOFT = 0.6;

export function checkSoft(soft: number): number {
  if (!Number.isFinite(soft) || soft <= 0 || soft >= 1) {
    throw new ConfigError(
      `background: soft is a share of the compaction trigger in (0, 1) (0.6 = prepare a summary at 60%), got ${soft}`,
    );
  }
  return soft;
}

/** The token count past which a background summary is prepared; null when nothing can trigger. */
export function softLimit(budget: ResolvedBudget, soft: number): number | null {
  if (budget.off !== null || budget.limit === null) return null;
  return Math.floor(soft * budget.limit);
}

/** Whether a prompt of `tokens` is past the soft threshold (and so worth preparing a summary for). */
export function pastSoft(tokens: number, budget: ResolvedBudget, soft: number): boolean {
  const limit = softLimit(budget, soft);
  return limit !== null && tokens > limit;
}
