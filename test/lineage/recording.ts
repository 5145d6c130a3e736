/** The extractive summarizer, remembering which entries each summary was given. */
import { extractiveSummarizer, type Summarizer } from '../../src/compact/index.js';

/** `given`: summarizedThroughId → the ids of the entries the summarizer was given, in order. */
export function recording(given: Map<string, string[]>, summaryTokens?: number): Summarizer {
  const inner = extractiveSummarizer({ summaryTokens });
  return {
    name: inner.name,
    summarize(request, signal) {
      given.set(
        request.plan.summarizedThroughId,
        request.plan.toSummarize.map((e) => e.id),
      );
      return inner.summarize(request, signal);
    },
  };
}
