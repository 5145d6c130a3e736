import type { PivotDetails } from '../model/entry.js';
import { handoverAndDetails } from './handover/build.js';
import type { CompactionPlan } from './plan.js';
import { analyzeSpan, type SpanAnalysis } from './span.js';

export { type CarriedCommand, carriedCommands, carriedLines } from './handover/store.js';

/**
 * The facts a pivot carries structurally (the handover: files, failures, constraints, requests,
 * commands, pending work, key values…), merged with the previous pivot's so that they survive any
 * number of compactions whatever the summary text says. Pass `analysis` when already made.
 */
export function collectDetails(
  plan: CompactionPlan,
  analysis: SpanAnalysis = analyzeSpan(plan.toSummarize, plan.previousPivot?.pivot.details, plan.toKeep),
): PivotDetails {
  return handoverAndDetails({
    span: plan.toSummarize,
    ...(plan.previousPivot ? { previous: plan.previousPivot.pivot.details } : {}),
    ...(plan.latestUserRequest === undefined ? {} : { latestRequest: plan.latestUserRequest }),
    requestInTail: plan.requestInTail,
    tail: plan.toKeep,
    analysis,
  }).details;
}
