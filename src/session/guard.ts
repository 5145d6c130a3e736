import { CompactionStoppedError, FloorTooLargeError, NoProgressError } from '../compact/index.js';

/** Automatic compactions failing in a row before automatic compaction stops (until a manual one). */
export const DEFAULT_MAX_FAILURES = 3;

/** Growth, as a share of the budget, after which a compaction that failed is tried again. */
const RETRY_GROWTH = 0.25;

/**
 * A compaction that failed for a reason that would only repeat (the floor is over the budget, or
 * the summary would not be smaller) is reported once; automatic attempts then wait until the
 * context has grown by a quarter of the budget — never a retry every turn. Passing failures (a
 * network error, an abort, a rejected summary) suspend nothing, unless `maxFailures` automatic
 * attempts failed in a row: then automatic compaction stops until a manual one.
 */
export class AutoCompactionGuard {
  private failedAt: number | null = null;
  private nearLimitAt: number | null = null;
  private failures = 0;
  /** Set once `maxFailures` automatic attempts failed in a row; cleared by a manual compaction. */
  stopped: CompactionStoppedError | null = null;

  constructor(private readonly maxFailures = Number.POSITIVE_INFINITY) {}

  /** Records a failure; returns the stop error when this automatic one reached the limit. */
  failed(error: unknown, estimate: number, automatic = true): CompactionStoppedError | null {
    if (error instanceof FloorTooLargeError || error instanceof NoProgressError) this.failedAt = estimate;
    if (!automatic || this.stopped) return null;
    this.failures += 1;
    if (this.failures < this.maxFailures) return null;
    this.stopped = new CompactionStoppedError(this.failures, error);
    return this.stopped;
  }

  /**
   * An automatic compaction that left the context within a quarter of the limit would run again a
   * turn or two later, for a few tokens each time: automatic attempts wait for growth as after a
   * failure, but never past the usable budget.
   */
  succeeded(tokensAfter: number, limit: number | null, automatic: boolean): void {
    this.failedAt = null;
    this.nearLimitAt = automatic && this.nearLimit(tokensAfter, limit) ? tokensAfter : null;
    this.resume();
  }

  nearLimit(tokensAfter: number, limit: number | null): boolean {
    return limit !== null && tokensAfter > (1 - RETRY_GROWTH) * limit;
  }

  /** A manual compaction: automatic ones may run again, counting failures from zero. */
  resume(): void {
    this.failures = 0;
    this.stopped = null;
  }

  /** Waiting after a success never lets a request go over the usable budget; after a failure it may (it failed there). */
  suspended(estimate: number, budget: { limit: number | null; usable: number | null }): boolean {
    const growth = RETRY_GROWTH * (budget.limit ?? 0);
    if (this.failedAt !== null) return estimate < this.failedAt + growth;
    if (this.nearLimitAt === null) return false;
    return estimate < this.nearLimitAt + growth && estimate <= (budget.usable ?? Number.POSITIVE_INFINITY);
  }
}
