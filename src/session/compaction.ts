import {
  buildSummaryRequest,
  type CompactionPlan,
  DEFAULT_PLAN_OPTIONS,
  FloorTooLargeError,
  LAST_REQUEST_PREFIX,
  type PlanOptions,
  planCompaction,
} from '../compact/index.js';
import { renderContext, splitAiSdkSystem } from '../context/index.js';
import type { CompactionEntry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import { planHeldInPart } from './cold-window.js';
import { appendWrite } from './entries.js';
import { type PivotCommit, type PivotDraft, pivotWrite } from './pivot-write.js';
import type { Session } from './session.js';
import { seedCall, summarizedView, viewOptions } from './summary-input.js';

export type CompactionOutcome =
  | {
      status: 'compacted';
      pivot: CompactionEntry;
      summary: string;
      tokensBefore: number;
      tokensAfter: number;
      millis: number;
    }
  | { status: 'skipped'; reason: string };

/** Seed 001 §4.3's synthetic message (X-03), off by default. */
export const CONTINUE_MESSAGE = 'Continue if you have next steps';

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
  const estimate = session.estimate();
  const tokensBefore = estimate.tokens;
  const calibrated = (raw: number) => Math.ceil(raw * estimate.ratio);
  // Besides the declared system prompt and tools, the provider counted tokens the log cannot
  // explain (the calibration residual): they stay after compaction too.
  const state = log.record.state;
  const residual = state.calibration[state.lastUsage?.model ?? config.model]?.residual ?? 0;
  const overhead = Math.ceil(calibrated(session.overheadRaw) + Math.max(0, residual));
  const limit = config.budget.limit;
  const instructions =
    [config.compaction.instructions, opts.instructions].filter(Boolean).join('\n\n') || undefined;
  const options = planOptions(session, limit === null ? null : limit - overhead, estimate.ratio);
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

  const { appendix, summaryCall, formatSummary } = config.compaction;
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
  const summary = formatSummary
    ? formatSummary(result.text, { latestRequest: plan.latestUserRequest, view: spanView() })
    : withLatestRequest(result.text, plan);

  const draft: PivotDraft = {
    plan,
    summary,
    details: result.details,
    previousPivotId,
    fields: {
      auto: opts.auto,
      summarizer: config.summarizer.name,
      model: config.summarizer.model,
      markerId: opts.markerId,
    },
    tokensBefore,
    activeTokensAtPlan: state.activeTokens,
    requestTokens: (raw) => overhead + calibrated(raw),
    calibrated,
    createdAt: config.now(),
    estimator: config.estimator,
  };
  let committed: PivotCommit | null = null;
  await log.mutate((record, active) => {
    // A retried attempt must not report the entry of a failed one.
    committed = pivotWrite(record, active, draft);
    return committed?.write ?? null;
  });
  const done = committed as PivotCommit | null;
  if (!done) return { status: 'skipped', reason: 'another worker compacted this session first' };
  // done.tokensBefore: the context the pivot replaced, with what was appended while it was written.
  const { entry: pivot, tokensAfter } = done;
  // The pivot is committed: what follows may fail without undoing or misreporting it.
  const after = async (what: string, step: () => unknown) => {
    try {
      await step();
    } catch (error) {
      session.events.emit('warning', { message: `${what} failed after a successful compaction`, error });
    }
  };
  if (opts.auto && config.compaction.continueMessage)
    await after('the continue message', () => appendContinue(session));
  await after('the token recount', () => recount(session));
  const millis = Date.now() - started;
  session.events.emit('compaction:end', { pivot, tokensBefore: done.tokensBefore, tokensAfter, millis });
  await after('the afterCompact hook', () => config.hooks.afterCompact?.(pivot));
  return { status: 'compacted', pivot, summary, tokensBefore: done.tokensBefore, tokensAfter, millis };
}

/**
 * Whatever the summarizer wrote, the user's latest request reaches the model verbatim: in the
 * kept tail, or in the summary (issue 4 §5, seed 004's last line).
 */
function withLatestRequest(summary: string, plan: CompactionPlan): string {
  const request = plan.latestUserRequest;
  if (
    plan.requestInTail ||
    request === undefined ||
    request.trim() === '' ||
    summary.includes(`${LAST_REQUEST_PREFIX}${request}`)
  )
    return summary;
  return `${summary.trimEnd()}\n\n${LAST_REQUEST_PREFIX}${request}`;
}

/** Share of the trigger limit the verbatim tail may take, so the context after has room to grow. */
const MAX_TAIL_SHARE = 0.4;

/**
 * The configured plan, with the kept tail capped by the room the budget leaves beside the fixed
 * overhead: seed 002's 30,000 tokens suit a 200k window, but with a small one they would leave
 * the context as full as before.
 */
function planOptions(session: Session, room: number | null, ratio: number): PlanOptions {
  const plan = session.config.compaction.plan ?? {};
  if (room === null || plan.keepNone) return plan;
  const cap = Math.max(1, Math.floor((Math.max(0, room) * MAX_TAIL_SHARE) / Math.max(ratio, 0.01)));
  return { ...plan, keepTokens: Math.min(plan.keepTokens ?? DEFAULT_PLAN_OPTIONS.keepTokens, cap) };
}

async function clearMarker(session: Session): Promise<void> {
  await session.log.mutate((record) => ({ append: [], state: { ...record.state, pendingMarkerId: null } }));
}

async function appendContinue(session: Session): Promise<void> {
  const setting = session.config.compaction.continueMessage;
  const text = typeof setting === 'string' ? setting : CONTINUE_MESSAGE;
  const message: Message = {
    role: 'user',
    parts: [{ type: 'text', text, synthetic: true }],
    metadata: { synthetic: true },
  };
  await session.log.mutate(appendWrite([message], session.config));
}

/** After compaction the provider's last count is stale: use its count endpoint if one is configured. */
async function recount(session: Session): Promise<void> {
  const { countTokens } = session.config.compaction;
  if (!countTokens) return;
  // Count exactly what prepare() would send next.
  const payload = renderContext(session.log.active, {
    ...viewOptions(session.config),
    format: 'ai-sdk',
    system: session.sentContext.system,
  });
  const tokens = await countTokens({ ...splitAiSdkSystem(payload), tools: session.sentContext.tools });
  if (tokens === undefined || !Number.isFinite(tokens)) return;
  await session.log.mutate((record) => ({
    append: [],
    state: {
      ...record.state,
      lastUsage: {
        usage: { inputTotal: tokens, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
        model: session.config.model,
        afterSeq: record.nextSeq,
      },
      addedSinceUsage: 0,
    },
  }));
}
