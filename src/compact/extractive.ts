import { type Estimator, heuristicEstimator } from '../tokens/estimator.js';
import { buildAppendix } from './appendix.js';
import { collectDetails } from './details.js';
import { buildExtractiveModel } from './extractive-model.js';
import { renderWithinBudget } from './extractive-render.js';
import type { SummaryRequest } from './input.js';
import { analyzeSpan } from './span.js';
import { type Summarizer, SummaryRejectedError, type SummaryResult } from './summarizer.js';

export interface ExtractiveOptions {
  /** Token budget of the whole summary, appendix included (default 4,000). */
  summaryTokens?: number;
  estimator?: Estimator;
}

/**
 * The offline summarizer: deterministic, no model. It fills seed 004's seven sections from the
 * log (requests, timeline, tools, files, last state, failures, next step), merges what the
 * previous pivot carried, and ends with the deterministic appendix. The appendix is never cut:
 * when it alone is over budget, the summary is over budget rather than losing a fact.
 */
export function extractiveSummarizer(options: ExtractiveOptions = {}): Summarizer {
  const budget = options.summaryTokens ?? 4_000;
  const estimator = options.estimator ?? heuristicEstimator();
  return {
    name: 'extractive',
    async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<SummaryResult> {
      if (signal?.aborted)
        throw new SummaryRejectedError('aborted', 'aborted before summarizing', { cause: signal.reason });
      return summarizeExtractive(request, budget, estimator);
    },
  };
}

/** The synchronous core, for callers (benchmarks, presets) that need no Promise. */
export function summarizeExtractive(
  request: SummaryRequest,
  budget: number,
  estimator: Estimator,
): SummaryResult {
  const analysis = analyzeSpan(request.plan.toSummarize);
  const details = collectDetails(request.plan, analysis);
  const appendix = buildAppendix(details, !request.plan.requestInTail);
  const appendixTokens = estimator.text(appendix);
  const model = buildExtractiveModel(request.plan, details, analysis);
  const instructions = request.instructions
    ? `User's instructions for this summary: ${request.instructions}\n\n`
    : '';
  const body = renderWithinBudget(
    model,
    (text) => estimator.text(instructions) + estimator.text(text) + appendixTokens + 2 <= budget,
    // No line costs less than a few tokens: more lines than this can never fit.
    Math.max(8, Math.floor(budget / 4)),
  );
  return { text: `${instructions}${body}\n\n${appendix}`, details };
}
