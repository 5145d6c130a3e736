import { beforeTurnDecision, type Decision } from '../budget/index.js';
import {
  CompactionError,
  CompactionStoppedError,
  FloorTooLargeError,
  NoProgressError,
  RequestTooLargeError,
} from '../compact/index.js';
import type { ContextFormat, ContextPayload } from '../context/index.js';
import type { Entry } from '../model/entry.js';
import type { TokenEstimate } from '../tokens/index.js';
import type { CompactionOutcome } from './compaction.js';
import { largestMessage } from './oversize.js';
import type { PruneOutcome } from './prune.js';
import type { Session } from './session.js';

export interface PrepareInput<F extends ContextFormat> {
  format?: F;
  /** Overrides the session's system prompt for this call. */
  system?: string;
  tools?: unknown;
  signal?: AbortSignal;
}

export interface Prepared<F extends ContextFormat = 'ai-sdk'> {
  /**
   * The payload in the requested format (for 'ai-sdk', without the system prompt: see `system`).
   * Its message list is the session's own, extended in place by the next prepare() so that a turn
   * never copies the whole history: copy it (`[...messages]`) to keep or edit it.
   */
  messages: ContextPayload<F>;
  /**
   * For 'ai-sdk': the system prompt (and any system-layout summary), for generateText's `system`
   * option — the AI SDK warns about system messages inside `messages`.
   */
  system?: string;
  decision: Decision;
  tokens: TokenEstimate;
  compaction: CompactionOutcome | null;
  /**
   * An automatic compaction that failed while the request still fits the usable budget: reported
   * here (and by the 'compaction:error' event) instead of thrown, so the turn can go on.
   */
  compactionError?: Error;
  pruned: PruneOutcome | null;
}
/**
 * prepare() with no message to send (a new session, before the user's first request): every
 * provider refuses a request without a conversation, so none is made.
 */
export class EmptyContextError extends Error {
  override name = 'EmptyContextError';
  constructor(readonly sessionId: string) {
    super(
      `nothing to send: session '${sessionId}' has no message in its context yet; append the user's request before prepare()`,
    );
  }
}

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

/**
 * The before-turn policy: a queued marker's compaction, batched pruning, the before-turn check
 * and its compaction, then the context. An automatic compaction that fails while the request
 * still fits the usable budget is reported, not thrown, so the turn goes on.
 */
export async function prepareTurn<F extends ContextFormat>(
  session: Session,
  input: PrepareInput<F>,
  system: string | undefined,
): Promise<Prepared<F>> {
  const { config, log, guard } = session;
  const suspended = () => guard.suspended(session.estimate().tokens, config.budget);
  let compaction: CompactionOutcome | null = null;
  let compactionError: Error | undefined;
  const report = (error: unknown) => {
    const estimate = session.estimate();
    const usable = config.budget.usable ?? Number.POSITIVE_INFINITY;
    if (!(error instanceof CompactionError)) throw error;
    if (usable < estimate.tokens) throw tooManyTokens(log.active, estimate, usable, error);
    compactionError = error;
  };
  const maxBytes = config.budget.requestBytes;
  const overBytes = () => maxBytes !== null && session.requestBytes() > maxBytes;
  const attempt = async (run: () => Promise<CompactionOutcome>) => {
    try {
      compaction = await run();
    } catch (error) {
      report(error);
    }
  };
  const pending = log.record.state.pendingMarkerId;
  if (pending && !suspended()) await attempt(() => session.runMarker(pending, input.signal));
  const pruned = config.prune?.when === 'turn' ? await session.prune({ batch: true }) : null;
  let tokens = session.estimate();
  let decision = beforeTurnDecision(config.checks.beforeTurn ? tokens : 0, config.budget);
  if ((decision.compact || overBytes()) && compaction === null && !compactionError && !suspended()) {
    await attempt(() => session.compact({ auto: true, signal: input.signal }));
    tokens = session.estimate();
    decision = beforeTurnDecision(tokens, config.budget);
  }
  // Past the soft threshold a summary is prepared for the next compaction.
  await session.background?.tick(session);
  // A window held only in part that no compaction condensed must be read whole to be sent.
  await log.loadWhole();
  // One message over the usable budget fits no request, whatever a compaction did or skipped (a
  // lone message is all kept tail): it is named, never sent.
  const alone = oversizedMessage(log.active, tokens, config.budget.usable, 'surely');
  if (alone)
    throw new FloorTooLargeError({ ...alone, floorTokens: tokens.tokens }, { cause: compactionError });
  if (overBytes()) {
    const largest = largestMessage(log.active, 'bytes');
    throw new RequestTooLargeError(session.requestBytes(), maxBytes!, largest, {
      cause: compactionError,
    });
  }
  const format = (input.format ?? 'ai-sdk') as F;
  // Only what changed since the last turn is rendered (context/incremental.ts).
  const context = session.context(format);
  const rendered = context.renderCall(log.active, system);
  // No provider takes a request without a conversation (validate() says so): nothing to send.
  if (context.viewEmpty) throw new EmptyContextError(session.id);
  return {
    ...rendered,
    decision,
    tokens,
    compaction,
    pruned,
    ...(compactionError ? { compactionError } : {}),
  };
}

/**
 * The largest message when it alone is over the usable budget, by the calibrated estimate; or
 * `surely` over it, by both the calibrated and the raw estimate: a ratio learned from reported
 * usage (which counts more than the log) can make a message look over the budget that is not.
 */
function oversizedMessage(
  active: readonly Entry[],
  estimate: TokenEstimate,
  usable: number | null,
  surely?: 'surely',
) {
  if (usable === null || estimate.tokens <= usable) return null;
  const largest = largestMessage(active, 'tokens');
  if (largest === null) return null;
  const calibrated = Math.ceil(largest.tokens * estimate.ratio);
  if ((surely ? Math.min(calibrated, largest.tokens) : calibrated) <= usable) return null;
  return { largest, budget: usable };
}

/**
 * The floor is over the usable budget: when one message alone is over it, no compaction ever helps,
 * and the error names that message.
 */
function tooManyTokens(
  active: readonly Entry[],
  estimate: TokenEstimate,
  usable: number,
  error: Error,
): Error {
  if (!(error instanceof FloorTooLargeError) || error.largest) return error;
  const alone = oversizedMessage(active, estimate, usable);
  return alone
    ? new FloorTooLargeError({ ...alone, floorTokens: error.floorTokens }, { cause: error })
    : error;
}
