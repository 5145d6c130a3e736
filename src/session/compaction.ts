import { compactionLimit } from '../budget/index.js';
import {
  buildSummaryRequest,
  type CompactionPlan,
  compactionTarget,
  DEFAULT_PLAN_OPTIONS,
  extractiveSummarizer,
  FloorTooLargeError,
  MIN_SUMMARY_TOKENS,
  type PlanOptions,
  planCompaction,
  recentGrowth,
  SUMMARY_FRAMING,
  type SummaryBudget,
  summarizeChecked,
  summaryRoom,
  tailCap,
} from '../compact/index.js';
import { DEFAULT_MARKER_QUESTION, summaryMessages } from '../context/summary.js';
import { isMessageEntry } from '../model/entry.js';
import { type Message, messageText } from '../model/message.js';
import { redact, secretValues } from '../model/secrets.js';
import { type BudgetEstimator, budgetEstimator } from '../tokens/budget-count.js';
import type { Estimator } from '../tokens/estimator.js';
import { planHeldInPart } from './cold-window.js';
import { type CompactionOutcome, commitPivot, compactionFigures, storedSummary } from './commit.js';
import { withEarlierRequests } from './earlier-requests.js';
import { finishCompaction } from './finish.js';
import { seedCall } from './seed-call.js';
import type { StepContext } from './step-context.js';
import { summarizedView } from './summary-input.js';

export type { CompactionOutcome } from './commit.js';
export { CONTINUE_MESSAGE } from './finish.js';

/**
 * Summarize → validate → commit. The store is written only after the summary is valid, in one
 * write; any failure before that leaves the session exactly as it was.
 */
export async function runCompaction(
  session: StepContext,
  opts: {
    auto: boolean;
    instructions?: string;
    markerId?: string;
    signal?: AbortSignal;
    targetTokens?: number;
  },
): Promise<CompactionOutcome> {
  const started = Date.now();
  const { config, log } = session;
  const previousPivotId = log.record.state.pivotId;
  const figures = compactionFigures(session);
  const { tokensBefore, ratio, overhead } = figures;
  const limit = compactionLimit(config.budget);
  const instructions = compactionInstructions(session, opts.instructions);
  const counter = budgetEstimator({
    model: config.model,
    estimator: config.estimator,
    ratio,
    calibrated: figures.calibrated,
  });
  const target = compactionTarget({
    asked: opts.targetTokens ?? config.compaction.targetTokens,
    limit,
    overhead,
    tokensBefore,
    auto: opts.auto,
    growthPerTurn: ratio * recentGrowth(log.active.filter(isMessageEntry)),
  });
  const options = planOptions(session, limit === null ? null : limit - overhead, ratio, target);
  const chunkBudget: SummaryBudget = {
    tokens: Math.max(1, target - tailCap(target)),
    count: counter.text,
    ...(counter.lines ? { countLines: counter.lines } : {}),
  };
  // A window held only in part is streamed and pre-summarized in chunks (session/cold-window.ts).
  const planned = log.whole
    ? planCompaction(log.active, options)
    : await planHeldInPart(session, options, { instructions, signal: opts.signal, budget: chunkBudget });
  if ('nothing' in planned) {
    if (opts.markerId) await clearMarker(session);
    return { status: 'skipped', reason: planned.reason };
  }
  const plan = await withEarlierRequests(planned, () => session.history());
  // Asked for by hand with no target on a context this small, a summary could only be larger than
  // what it replaces. With a target, the caller decides.
  const conversation = Math.max(0, tokensBefore - overhead);
  const asked = opts.targetTokens ?? config.compaction.targetTokens;
  if (
    config.compaction.gate !== false &&
    !opts.auto &&
    asked === undefined &&
    conversation < 2 * MIN_SUMMARY_TOKENS
  ) {
    if (opts.markerId) await clearMarker(session);
    return {
      status: 'skipped',
      reason: `only ${conversation} tokens besides the system prompt and tools: too few for a summary to be smaller`,
    };
  }
  const span = Math.max(0, conversation - tailTokens(plan, counter));
  const budget = summaryBudget(session, plan, { target, counter, overhead });
  if ((await config.hooks.beforeCompact?.({ auto: opts.auto, tokensBefore })) === false) {
    return { status: 'skipped', reason: 'cancelled by the beforeCompact hook' };
  }
  session.events.emit('compaction:start', {
    auto: opts.auto,
    reason: opts.markerId ? 'marker' : 'direct',
    tokensBefore,
  });

  const { appendix, summaryCall } = config.compaction;
  const request = buildSummaryRequest(plan, {
    instructions,
    estimator: config.estimator,
    appendix,
    budget,
  });
  let view: Message[] | undefined;
  const spanView = () => (view ??= summarizedView(config, log.active, plan));
  if (summaryCall) {
    // Extra instructions follow the preset's own prompt after a blank line.
    const prompt = [summaryCall.prompt, instructions].filter(Boolean).join('\n\n') || undefined;
    request.call = seedCall({ ...summaryCall, prompt }, spanView(), session.sentContext);
  }
  const gate = config.compaction.gate !== false;
  const checked = await summarizeChecked({
    summarizer: config.summarizer,
    gate,
    fallback:
      gate && config.compaction.fallback !== false
        ? extractiveSummarizer({ estimator: config.estimator })
        : null,
    request,
    replacedTokens: span,
    tailText: plan.toKeep.map((e) => messageText(e.message)).join('\n'),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  opts.signal?.throwIfAborted();
  if (checked.fallback)
    session.events.emit('compaction:fallback', {
      reason: checked.fallback.reason,
      // A provider's error may echo the key it was sent.
      detail: redact(checked.fallback.detail, secretValues(process.env)),
      summarizer: config.summarizer.name,
    });
  const { result } = checked;
  const summary = storedSummary(session, result.text, plan, spanView);
  const committed = await commitPivot(session, {
    plan,
    summary,
    details: result.details,
    auto: opts.auto,
    markerId: opts.markerId,
    previousPivotId,
    figures,
    summarizer: checked.summarizer,
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
export function compactionInstructions(session: StepContext, own?: string): string | undefined {
  return [session.config.compaction.instructions, own].filter(Boolean).join('\n\n') || undefined;
}

/** Share of the trigger limit a configured verbatim tail may take, so the context after has room to grow. */
const MAX_TAIL_SHARE = 0.4;

/**
 * The plan's options. By default the tail is whole turns, newest first, up to its share of the
 * target (in the log's raw tokens). A configured tail (a preset's, or `plan.keepTokens`) is kept,
 * capped by the room the budget leaves beside the fixed overhead: Nexus's 30,000 tokens suit a
 * 200k window, but with a small one they would leave the context as full as before.
 */
export function planOptions(
  session: StepContext,
  room: number | null,
  ratio: number,
  target: number,
): PlanOptions {
  const plan = session.config.compaction.plan ?? {};
  if (plan.keepNone) return plan;
  const raw = (tokens: number) => Math.max(1, Math.floor(tokens / Math.max(ratio, 0.01)));
  if (plan.keepTokens === undefined)
    return { keepTurns: Number.MAX_SAFE_INTEGER, ...plan, keepTokens: raw(tailCap(target)) };
  if (room === null) return plan;
  const cap = raw(Math.max(0, room) * MAX_TAIL_SHARE);
  return { ...plan, keepTokens: Math.min(plan.keepTokens ?? DEFAULT_PLAN_OPTIONS.keepTokens, cap) };
}

/** The verbatim tail's size by the budget's count. */
function tailTokens(plan: CompactionPlan, counter: Estimator): number {
  return plan.toKeep.reduce((a, e) => a + counter.message(e.message), 0);
}

/**
 * The summary's share of the target once the tail is chosen, counted as the provider counts. The
 * floor — system prompt and tools, the verbatim tail, and the latest request, which every summary
 * repeats word for word — must fit the limit with at least a minimal summary beside it, else no
 * compaction can help: FloorTooLargeError.
 */
export function summaryBudget(
  session: StepContext,
  plan: CompactionPlan,
  f: { target: number; counter: BudgetEstimator; overhead: number },
): SummaryBudget {
  const limit = compactionLimit(session.config.budget);
  const tail = tailTokens(plan, f.counter);
  const request = plan.requestInTail ? 0 : f.counter.text(plan.latestUserRequest ?? '');
  const floor = f.overhead + tail + request;
  if (limit !== null && floor > limit) throw new FloorTooLargeError({ floorTokens: floor, budget: limit });
  // The summary's own message costs its framing besides its text: the delimiters of its layout.
  const { summaryAs = 'user', markerQuestion = DEFAULT_MARKER_QUESTION } = session.config.compaction;
  const framing = summaryMessages('', summaryAs, markerQuestion).reduce(
    (a, m) => a + f.counter.message(m),
    0,
  );
  let tokens = summaryRoom(f.target, tail + framing, 0) + SUMMARY_FRAMING;
  const configured = session.config.compaction.summaryTokens;
  if (configured !== undefined) tokens = Math.min(tokens, configured);
  // Never past the limit, whatever the target asked for.
  if (limit !== null) tokens = Math.min(tokens, limit - f.overhead - tail - framing);
  return {
    tokens: Math.max(1, tokens),
    count: f.counter.text,
    ...(f.counter.lines ? { countLines: f.counter.lines } : {}),
  };
}

async function clearMarker(session: StepContext): Promise<void> {
  await session.log.mutate((record) => ({ append: [], state: { ...record.state, pendingMarkerId: null } }));
}
