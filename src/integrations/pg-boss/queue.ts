import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import type { Summarizer } from '../../compact/index.js';
import { importPeer } from '../../model/peer.js';
import { maskSecrets } from '../../model/secrets.js';
import { type PreparedSummary, type SummaryJob, summarizeJob } from '../../session/background/job.js';
import type { CompactionQueue, JobOutcome } from '../../session/background/queue.js';
import type { Estimator } from '../../tokens/estimator.js';

// Loaded with the `condense-context/pg-boss` entry; without `pg-boss` installed, the import says what to install.
const { default: Boss } = await importPeer<{ default: typeof PgBoss }>('pg-boss', 'condense-context/pg-boss');

export interface PgBossQueueOptions {
  /** The PostgreSQL server, e.g. `postgres://user@host:5432/db`. */
  connectionString: string;
  /** The schema pg-boss keeps its tables in (created on first start). Default 'condense_jobs'. */
  schema?: string;
  /** The queue's name inside that schema. Default 'condense-summaries'. */
  queue?: string;
  /**
   * Given: this process also works the queue's jobs, writing summaries with it. Absent: it only
   * submits jobs and waits for them; workers elsewhere (started with a summarizer) write them.
   */
  summarizer?: Summarizer;
  /** Measures summary requests, as the sessions' estimator does. */
  estimator?: Estimator;
  /** Jobs this process works at once. Default 2. */
  concurrency?: number;
  /** How often `wait` reads a job's state, in ms. Default 100. */
  pollMillis?: number;
  /** A job still unfinished after this long fails (pg-boss expiry). Default 600 s. */
  expireInSeconds?: number;
  /** pg-boss's own errors (a lost connection, a failed poll); default: ignored, as the session falls back. */
  onError?: (error: Error) => void;
}

/** What a worker stores as the job's output: the summary and how long it took. */
interface Output {
  summary: PreparedSummary;
  millis: number;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/**
 * Waits (up to 5 s) until pg-boss's pool has no query running or waiting for a connection: the
 * polls of stopped workers have come back. The pool is pg-boss's own (its `getDb()`), read loosely.
 */
async function settled(boss: PgBoss): Promise<void> {
  const pool = (boss.getDb() as { pool?: { waitingCount: number; idleCount: number; totalCount: number } })
    .pool;
  for (let waited = 0; pool && waited < 5_000; waited += 10) {
    if (pool.waitingCount === 0 && pool.idleCount === pool.totalCount) return;
    await sleep(10, undefined, { ref: false });
  }
}

function failure(output: unknown, state: string): string {
  const message = (output as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : `job ${state}`;
}

/**
 * A CompactionQueue on PostgreSQL through pg-boss: jobs are rows, any process started with a
 * summarizer works them, and the submitting session reads the outcome back by job id. A job
 * carries the whole summary input as JSON, so a worker needs no access to the session's store.
 */
export async function pgBossQueue(options: PgBossQueueOptions): Promise<CompactionQueue & { boss: PgBoss }> {
  const name = options.queue ?? 'condense-summaries';
  const pollMillis = options.pollMillis ?? 100;
  const boss = new Boss({
    connectionString: options.connectionString,
    schema: options.schema ?? 'condense_jobs',
    max: 4,
    // condense schedules no cron jobs: no clock monitor polling the database for them.
    schedule: false,
    // Completed summaries are read back within seconds; nothing needs them for long.
    retentionMinutes: 60,
  });
  boss.on('error', (error: Error) => options.onError?.(error));
  await boss.start();
  await boss.createQueue(name);
  const workers: string[] = [];
  const { summarizer } = options;
  // Summaries still being written when the queue closes are abandoned: their jobs fail.
  const closing = new AbortController();
  if (summarizer) {
    for (let i = 0; i < Math.max(1, options.concurrency ?? 2); i++) {
      const id = await boss.work<SummaryJob>(
        name,
        { batchSize: 1, pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          const started = performance.now();
          // pg-boss keeps a failure's message in its table: no credential may reach it.
          const summary = await summarizeJob(job!.data, summarizer, options.estimator, closing.signal).catch(
            (error) => {
              throw maskSecrets(error);
            },
          );
          return { summary, millis: performance.now() - started } satisfies Output;
        },
      );
      workers.push(id);
    }
  }
  let closed = false;

  return {
    boss,
    async submit(job) {
      if (closed) throw new Error('the compaction queue is closed');
      const id = await boss.send(name, job, {
        retryLimit: 0,
        expireInSeconds: options.expireInSeconds ?? 600,
      });
      if (id === null) throw new Error('pg-boss did not queue the summary job');
      // A worker of this process fetches it now rather than at its next poll.
      for (const worker of workers) boss.notifyWorker(worker);
      return id;
    },
    async wait(id, signal): Promise<JobOutcome> {
      for (;;) {
        signal?.throwIfAborted();
        if (closed) return { state: 'failed', error: 'the compaction queue is closed' };
        const job = await boss.getJobById(name, id).catch((error: Error) => error);
        if (job instanceof Error) {
          if (closed) return { state: 'failed', error: 'the compaction queue is closed' };
          throw job;
        }
        if (job === null) return { state: 'failed', error: `unknown job ${id}` };
        if (job.state === 'completed') {
          const output = job.output as Output;
          return { state: 'done', summary: output.summary, millis: output.millis };
        }
        if (FINISHED.has(job.state)) return { state: 'failed', error: failure(job.output, job.state) };
        // Unreferenced: a job still running elsewhere does not keep this process alive.
        await sleep(pollMillis, undefined, { ref: false, ...(signal ? { signal } : {}) });
      }
    },
    async cancel(id) {
      // Stops it if it has not finished; then the row goes, the summary is not wanted.
      await boss.cancel(name, id);
      await boss.deleteJob(name, id);
    },
    async close() {
      if (closed) return;
      closed = true;
      // Workers first, then the database. pg-boss ends its pool at once; a worker's poll that is
      // waiting for a connection then is never answered (pg-pool serves no request queued before
      // end()), the worker never stops, and pg-boss's wait for it keeps a timer — and the
      // process — alive for good.
      if (workers.length > 0) {
        closing.abort(new Error('the compaction queue is closed'));
        await boss.offWork(name);
        await settled(boss);
      }
      await boss.stop({ graceful: false, wait: true, timeout: 1_000 });
    },
  };
}
