import { randomUUID } from 'node:crypto';
import type { Summarizer } from '../../compact/index.js';
import { redact, secretValues } from '../../model/secrets.js';
import type { Estimator } from '../../tokens/estimator.js';
import { type PreparedSummary, type SummaryJob, summarizeJob } from './job.js';

/** What became of a job: its summary (and how long the worker took), or why there is none. */
export type JobOutcome =
  | { state: 'done'; summary: PreparedSummary; millis: number }
  | { state: 'failed'; error: string };

/**
 * Where background summaries are made. A session only submits jobs and waits for their outcome;
 * who runs them (this process, or workers of a job queue on PostgreSQL) is the queue's business,
 * and a worker sees nothing but the job.
 */
export interface CompactionQueue {
  /** Queues a job; resolves with its id once queued, never waiting for the summary. */
  submit(job: SummaryJob): Promise<string>;
  /** Resolves once the job has finished, failed or been cancelled; `signal` stops the waiting only. */
  wait(id: string, signal?: AbortSignal): Promise<JobOutcome>;
  /** The job is no longer wanted: stopped if it has not finished, its result forgotten if it has. */
  cancel(id: string): Promise<void>;
  /** Stops the queue: unfinished jobs end as failed. */
  close(): Promise<void>;
}

/** Resolves like `promise`, or rejects with the signal's reason once it aborts. */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export interface InProcessQueueOptions {
  /** Writes the summaries (a session's default queue uses the session's own summarizer). */
  summarizer: Summarizer;
  /** Measures summary requests, as the session's estimator does. */
  estimator?: Estimator;
  /** Jobs summarized at once; more wait their turn. Default 2. */
  concurrency?: number;
}

interface Slot {
  job: SummaryJob;
  controller: AbortController;
  outcome: Promise<JobOutcome>;
  settle: (outcome: JobOutcome) => void;
  settled: boolean;
}

// Masked: the outcome is read by sessions and stored by database queues.
const message = (error: unknown) =>
  redact(error instanceof Error ? error.message : String(error), secretValues(process.env));

/**
 * The queue of one process: jobs run on this event loop after the submitting call has returned.
 * A job is cloned when submitted, as a queue on a database would serialize it, so a worker can
 * never touch the session's own objects.
 */
export function inProcessQueue(options: InProcessQueueOptions): CompactionQueue {
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const slots = new Map<string, Slot>();
  const waiting: Slot[] = [];
  let running = 0;
  let closed = false;

  const finish = (slot: Slot, outcome: JobOutcome) => {
    if (slot.settled) return;
    slot.settled = true;
    slot.settle(outcome);
  };
  const pump = () => {
    while (running < concurrency && waiting.length > 0) {
      const slot = waiting.shift()!;
      if (slot.settled) continue;
      running += 1;
      const started = performance.now();
      summarizeJob(slot.job, options.summarizer, options.estimator, slot.controller.signal)
        .then(
          (summary) => finish(slot, { state: 'done', summary, millis: performance.now() - started }),
          (error) => finish(slot, { state: 'failed', error: message(error) }),
        )
        .finally(() => {
          running -= 1;
          pump();
        });
    }
  };

  return {
    async submit(job) {
      if (closed) throw new Error('the compaction queue is closed');
      const id = randomUUID();
      let settle!: (outcome: JobOutcome) => void;
      const outcome = new Promise<JobOutcome>((resolve) => {
        settle = resolve;
      });
      const slot: Slot = {
        job: structuredClone(job),
        controller: new AbortController(),
        outcome,
        settle,
        settled: false,
      };
      slots.set(id, slot);
      waiting.push(slot);
      // Not now: the summarizer must not start inside the agent's call that submitted the job.
      setImmediate(pump);
      return id;
    },
    async wait(id, signal) {
      const slot = slots.get(id);
      if (!slot) return { state: 'failed', error: `unknown job ${id}` };
      return untilAborted(slot.outcome, signal);
    },
    async cancel(id) {
      const slot = slots.get(id);
      if (!slot) return;
      slots.delete(id);
      slot.controller.abort(new Error('cancelled'));
      finish(slot, { state: 'failed', error: 'cancelled' });
    },
    async close() {
      closed = true;
      for (const id of [...slots.keys()]) await this.cancel(id);
    },
  };
}
