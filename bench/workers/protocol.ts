/** What the parent tells a worker process, what the worker reports back, and its stand-in model. */
import { MockLanguageModelV3 } from 'ai/test';

export interface WorkerConfig {
  worker: number;
  sessions: string[];
  appends: number;
  /** prepare() (and so any due compaction) after every this many appends. */
  prepareEvery: number;
  /** How long the summarizer's model call takes: the window in which other workers race it. */
  summarizeMillis: number;
  contextWindow: number;
  /** Size of each message: this many copies of a 66-character sentence after the tag. */
  fillerRepeat: number;
}

export interface WorkerReport {
  worker: number;
  /** Wall clock (ms since the epoch) of the first append and after the last. */
  startedAt: number;
  endedAt: number;
  /** One per successful append. */
  latenciesMicros: number[];
  /** Every error that reached the worker (thrown, or reported by prepare()). */
  errors: string[];
  /** The numbers of the appends that threw (their messages may rightly be missing). */
  failed: number[];
  /** Each compaction this worker started: the window (by its pivot) it found over the limit. */
  detected: { session: string; previousPivotId: string | null }[];
  /** Compactions whose result was dropped because another worker compacted that window first. */
  dropped: number;
  compacted: number;
  /** Writes that lost a compare-and-swap race and were computed and committed again. */
  conflicts: number;
}

/** A model that answers every summary call after `millis`, as a real one would take a while. */
export function summaryModel(worker: number, millis: number): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, millis));
      return {
        content: [{ type: 'text', text: `Summary ${calls} by worker ${worker}: the task goes on.` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 20, text: 20, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}
