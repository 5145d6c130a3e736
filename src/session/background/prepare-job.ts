import {
  type CompactionPlan,
  compactionTarget,
  DEFAULT_PLAN_OPTIONS,
  type NothingToCompact,
  planCompaction,
  recentGrowth,
} from '../../compact/index.js';
import { isMessageEntry } from '../../model/entry.js';
import { budgetEstimator } from '../../tokens/budget-count.js';
import { compactionFigures } from '../commit.js';
import { compactionInstructions, planOptions, summaryBudget } from '../compaction.js';
import type { StepContext } from '../step-context.js';
import { summarizedView } from '../summary-input.js';
import { basisOf, type SummaryJob } from './job.js';

/** The prepare step, on the agent's path: what to summarize now, as a job of plain data. */

/**
 * The plan of a compaction made now for the hard threshold: what arrives until then is kept
 * after the pivot too, so the verbatim tail kept now is smaller by that growth, and the context
 * after applying is about as small as after a compaction made there.
 */
export function softPlan(session: StepContext, tokens: number): CompactionPlan | NothingToCompact {
  const { ratio, overhead } = compactionFigures(session);
  const limit = session.config.budget.limit;
  const target = softTarget(session, tokens);
  const options = planOptions(session, limit === null ? null : limit - overhead, ratio, target);
  if (limit === null || options.keepNone) return planCompaction(session.log.active, options);
  const growth = Math.max(0, (limit - tokens) / Math.max(ratio, 0.01));
  const keep = options.keepTokens ?? DEFAULT_PLAN_OPTIONS.keepTokens;
  const keepTokens = Math.max(1, Math.floor(keep - growth));
  return planCompaction(session.log.active, { ...options, keepTokens });
}

/** The automatic compaction's target, as the compaction at the hard threshold would take it. */
function softTarget(session: StepContext, tokens: number): number {
  const { overhead, ratio } = compactionFigures(session);
  return compactionTarget({
    asked: session.config.compaction.targetTokens,
    limit: session.config.budget.limit,
    overhead,
    tokensBefore: tokens,
    auto: true,
    growthPerTurn: ratio * recentGrowth(session.log.active.filter(isMessageEntry)),
  });
}

/** The job for `plan`: the session's settings for summaries, as data. */
export function buildJob(session: StepContext, plan: CompactionPlan): SummaryJob {
  const { config, log } = session;
  const figures = compactionFigures(session);
  const count = { model: config.model, ratio: figures.ratio, calibrated: figures.calibrated };
  const counter = budgetEstimator({ ...count, estimator: config.estimator });
  const target = softTarget(session, figures.tokensBefore);
  const { tokens } = summaryBudget(session, plan, { target, counter, overhead: figures.overhead });
  const instructions = compactionInstructions(session);
  const { summaryCall, appendix } = config.compaction;
  const job: SummaryJob = {
    sessionId: session.id,
    basis: basisOf(log.record.state, log.active, plan),
    plan,
    budget: { tokens, count },
    ...(instructions ? { instructions } : {}),
    ...(appendix !== undefined ? { appendix } : {}),
  };
  if (summaryCall) {
    // Extra instructions follow the preset's own prompt after a blank line.
    const prompt = [summaryCall.prompt, instructions].filter(Boolean).join('\n\n') || undefined;
    const { system, tools } = session.sentContext;
    job.call = {
      spec: { ...summaryCall, ...(prompt ? { prompt } : {}) },
      view: summarizedView(config, log.active, plan),
      agent: { ...(system !== undefined ? { system } : {}), ...(tools !== undefined ? { tools } : {}) },
    };
  }
  return job;
}
