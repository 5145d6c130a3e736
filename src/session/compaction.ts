import {
  buildSummaryRequest,
  DEFAULT_PLAN_OPTIONS,
  FloorTooLargeError,
  type PlanOptions,
  planCompaction,
} from '../compact/index.js';
import type { Message } from '../model/message.js';
import { planHeldInPart } from './cold-window.js';
import { type CompactionOutcome, commitPivot, compactionFigures, storedSummary } from './commit.js';
import { finishCompaction } from './finish.js';
import type { Session } from './session.js';
import { seedCall, summarizedView } from './summary-input.js';

export type { CompactionOutcome } from './commit.js';
export { CONTINUE_MESSAGE } from './finish.js';

/**
 * Summarize → validate → commit. The store is written only after the summary is valid, in one
 * write; any failure before that leaves the session exactly as it was.
 */
export async function runCompaction(
  session: Session,
  opts: { auto: boolean; instructions?: string; markerId?: string; signal?: AbortSignal },
): Promise<CompactionOutcome> {
  const started = Date.now();
  const { config, log } = session;
  const previousPivotId = log.record.state.pivotId;
  const figures = compactionFigures(session);
  const { tokensBefore, ratio, overhead } = figures;
  const calibrated = (raw: number) => Math.ceil(raw * ratio);
  const limit = config.budget.limit;
  const instructions = compactionInstructions(session, opts.instructions);
  const options = planOptions(session, limit === null ? null : limit - overhead, ratio);
  // A window held only in part is streamed and pre-summarized in chunks (session/cold-window.ts).
  const plan = log.whole
    ? planCompaction(log.active, options)
    : await planHeldInPart(session, options, { instructions, signal: opts.signal });
  if ('nothing' in plan) {
    if (opts.markerId) await clearMarker(session);
    return { status: 'skipped', reason: plan.reason };
  }
  // The floor: what no summary can remove — system prompt and tools, the verbatim tail, and the
  // latest request, which every summary repeats word for word.
  const requestTokens = plan.requestInTail ? 0 : config.estimator.text(plan.latestUserRequest ?? '');
  const floor = overhead + calibrated(plan.predictedTailTokens + requestTokens);
  if (limit !== null && floor > limit) throw new FloorTooLargeError({ floorTokens: floor, budget: limit });
  if ((await config.hooks.beforeCompact?.({ auto: opts.auto, tokensBefore })) === false) {
    return { status: 'skipped', reason: 'cancelled by the beforeCompact hook' };
  }
  session.events.emit('compaction:start', {
    auto: opts.auto,
    reason: opts.markerId ? 'marker' : 'direct',
    tokensBefore,
  });

  const { appendix, summaryCall } = config.compaction;
  const request = buildSummaryRequest(plan, { instructions, estimator: config.estimator, appendix });
  let view: Message[] | undefined;
  const spanView = () => (view ??= summarizedView(config, log.active, plan));
  if (summaryCall) {
    // A001-09: extra instructions follow the seed's own with a blank line.
    const prompt = [summaryCall.prompt, instructions].filter(Boolean).join('\n\n') || undefined;
    request.call = seedCall({ ...summaryCall, prompt }, spanView(), session.sentContext);
  }
  const result = await config.summarizer.summarize(request, opts.signal);
  opts.signal?.throwIfAborted();
  const summary = storedSummary(session, result.text, plan, spanView);
  const committed = await commitPivot(session, {
    plan,
    summary,
    details: result.details,
    auto: opts.auto,
    markerId: opts.markerId,
    previousPivotId,
    figures,
    summarizer: { name: config.summarizer.name, model: config.summarizer.model },
  });
  if (!('pivot' in committed))
    return { status: 'skipped', reason: 'another worker compacted this session first' };
  // committed.tokensBefore: the context the pivot replaced, with what was appended while it was written.
  const { pivot, tokensAfter } = committed;
  return finishCompaction(session, pivot, {
    auto: opts.auto,
    summary,
    tokensBefore: committed.tokensBefore,
    tokensAfter,
    started,
  });
}

/** The configured instructions for every summary, then this compaction's own. */
export function compactionInstructions(session: Session, own?: string): string | undefined {
  return [session.config.compaction.instructions, own].filter(Boolean).join('\n\n') || undefined;
}

/** Share of the trigger limit the verbatim tail may take, so the context after has room to grow. */
const MAX_TAIL_SHARE = 0.4;

/**
 * The configured plan, with the kept tail capped by the room the budget leaves beside the fixed
 * overhead: seed 002's 30,000 tokens suit a 200k window, but with a small one they would leave
 * the context as full as before.
 */
export function planOptions(session: Session, room: number | null, ratio: number): PlanOptions {
  const plan = session.config.compaction.plan ?? {};
  if (room === null || plan.keepNone) return plan;
  const cap = Math.max(1, Math.floor((Math.max(0, room) * MAX_TAIL_SHARE) / Math.max(ratio, 0.01)));
  return { ...plan, keepTokens: Math.min(plan.keepTokens ?? DEFAULT_PLAN_OPTIONS.keepTokens, cap) };
}

async function clearMarker(session: Session): Promise<void> {
  await session.log.mutate((record) => ({ append: [], state: { ...record.state, pendingMarkerId: null } }));
}
