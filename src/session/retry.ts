/**
 * How a write that lost a compare-and-swap race waits before it tries again. Pure: the Log
 * (log.ts) sleeps and retries; this only decides how long, and when to give up.
 */
export interface RetryPolicy {
  /** The longest wait before the second retry (ms); each further conflict doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * How long one write may keep losing before its VersionConflictError is thrown (ms). A time,
   * not a count of attempts: eight busy writers on one session can make a write lose eight times
   * in a row within milliseconds, while losing for this long means something is wrong (a writer
   * committing in a loop) that the caller should hear about.
   */
  deadlineMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 1, maxDelayMs: 50, deadlineMs: 30_000 };

/**
 * The wait before retry number `conflicts` (1 after the first conflict), or null when the write has
 * spent its deadline. "Full jitter": uniform in [0, cap), so writers that collided once spread out
 * instead of colliding again in step; the cap keeps a long-losing writer from waiting much
 * longer than a fresh one, which would starve it.
 */
export function retryDelay(
  conflicts: number,
  elapsedMs: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (elapsedMs >= policy.deadlineMs) return null;
  // The writer that won has committed: the first retry goes at once (catching up takes a read).
  if (conflicts <= 1) return 0;
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (conflicts - 2));
  return Math.min(random() * cap, policy.deadlineMs - elapsedMs);
}
