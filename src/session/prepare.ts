import { beforeTurnDecision, type Decision } from '../budget/index.js';
import { CompactionError, FloorTooLargeError, RequestTooLargeError } from '../compact/index.js';
import type { ContextFormat, ContextPayload, IncrementalContext } from '../context/index.js';
import type { Entry } from '../model/entry.js';
import type { TokenEstimate } from '../tokens/index.js';
import { compactsWhileCold } from './cache-policy.js';
import type { CompactionOutcome } from './compaction.js';
import type { VersionRead } from './log.js';
import { largestMessage } from './oversize.js';
import type { PruneOutcome } from './prune.js';
import type { GuardedContext } from './step-context.js';

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

/** What the before-turn policy runs, as the session runs it, and the figures it reads. */
export interface TurnInput extends GuardedContext {
  readonly background: { tick(session: GuardedContext): Promise<void> } | null;
  /** UTF-8 bytes of the window's messages. */
  requestBytes(): number;
  /** The request in `format`, kept from turn to turn. */
  context<F extends ContextFormat>(format: F): IncrementalContext<F>;
  runMarker(markerId: string, signal?: AbortSignal): Promise<CompactionOutcome>;
  prune(opts: { batch: boolean }): Promise<PruneOutcome | null>;
  compact(opts: { auto: boolean; signal?: AbortSignal }): Promise<CompactionOutcome>;
}

/**
 * The before-turn policy: a queued marker's compaction, batched pruning, the before-turn check
 * and its compaction, then the context. An automatic compaction that fails while the request
 * still fits the usable budget is reported, not thrown, so the turn goes on.
 */
export async function prepareTurn<F extends ContextFormat>(
  session: TurnInput,
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
  const cold = () => compactsWhileCold({ config, active: log.active, estimate: tokens });
  const due = decision.compact || overBytes() || cold();
  if (due && compaction === null && !compactionError && !suspended()) {
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
 * A turn prepared while the stored version was read (Log.versionRead), kept when that version
 * is the held one: the one held when the read began (nobody wrote since), or the one this turn's
 * own writes left (the read came after them, and nobody wrote in between; a version is never
 * reused). Otherwise another writer had moved on: the turn is prepared again after a refresh,
 * and an error thrown on the old record is not the caller's. Its own writes are kept either
 * way (each was a compare-and-swap), and so is what the first preparation reported of them.
 */
export async function preparedFresh<R extends { compaction: unknown; pruned: unknown }>(
  read: VersionRead,
  log: { readonly record: { readonly version: number }; refresh(): Promise<void> },
  prepare: () => Promise<R>,
): Promise<R> {
  const first = await prepare().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const stored = await read.stored;
  if (stored !== undefined && (stored === read.held || stored === log.record.version)) {
    if ('error' in first) throw first.error;
    return first.value;
  }
  await log.refresh();
  const again = await prepare();
  if (!('value' in first)) return again;
  return {
    ...again,
    compaction: again.compaction ?? first.value.compaction,
    pruned: again.pruned ?? first.value.pruned,
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
