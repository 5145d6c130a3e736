import { type Summarizer, SummaryRejectedError } from '../compact/index.js';

/**
 * The model's summary, and the offline one when the model's call fails (a bad key, a model that
 * answers with a tool call or nothing): the session compacts either way, and `onFallback` says why.
 * `name` and `model` tell which of the two wrote the latest summary (read by the pivot after it).
 * An abort is no failure: it is passed on.
 */
export function withFallback(
  primary: Summarizer,
  fallback: Summarizer,
  onFallback: (error: unknown) => void,
): Summarizer {
  let used: Summarizer = primary;
  return {
    get name() {
      return used.name;
    },
    get model() {
      return used.model;
    },
    async summarize(request, signal) {
      try {
        used = primary;
        return await primary.summarize(request, signal);
      } catch (error) {
        const aborted =
          signal?.aborted || (error instanceof SummaryRejectedError && error.reason === 'aborted');
        if (aborted) throw error;
        onFallback(error);
        used = fallback;
        return fallback.summarize(request, signal);
      }
    },
  };
}
