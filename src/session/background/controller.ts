import { beforeTurnDecision, pastSoft } from '../../budget/index.js';
import { isNothingToCompact } from '../../compact/index.js';
import { redact, secretValues } from '../../model/secrets.js';
import { type CompactionOutcome, commitPivot, compactionFigures, storedSummary } from '../commit.js';
import type { DiscardReason } from '../events.js';
import { finishCompaction } from '../finish.js';
import type { GuardedContext, StepContext } from '../step-context.js';
import { summarizedView } from '../summary-input.js';
import { type SummaryJob, spanHolds, staleReason } from './job.js';
import { buildJob, softPlan } from './prepare-job.js';
import { type CompactionQueue, type JobOutcome, untilAborted } from './queue.js';

/** Growth, as a share of the trigger limit, before a job that failed (or had nothing to do) is tried again. */
const RETRY_GROWTH = 0.1;

interface Pending {
  id: string;
  job: SummaryJob;
  /** Ids of the summarized entries: a write replacing one of them makes the job stale. */
  span: Set<string>;
  /** Set when such a write happened here (or the window was reloaded): the next tick reads the span. */
  touched: boolean;
  /** The queue's outcome, waited for once; `settled` once it is in. */
  outcome: Promise<JobOutcome>;
  settled: JobOutcome | null;
}

/**
 * A session's background compaction: at most one job at a time, started past the soft threshold
 * and applied (or discarded) by the next automatic compaction.
 */
export class BackgroundCompaction {
  private pending: Pending | null = null;
  /** After a failure or an empty plan: no new job before the prompt passes `tokens` (same pivot). */
  private idle: { pivotId: string | null; tokens: number } | null = null;
  private starting = false;
  /** Prepared summaries discarded so far (stale, failed, or too small to apply). */
  discarded = 0;

  constructor(
    readonly queue: CompactionQueue,
    readonly soft: number,
  ) {}

  /** Told by the log which entries a write replaced in place. */
  changed(ids: string[] | 'reload'): void {
    const p = this.pending;
    if (p && (ids === 'reload' || ids.some((id) => p.span.has(id)))) p.touched = true;
  }

  /** The job in flight, if any (its id and the prefix it covers). */
  get job(): { id: string; job: SummaryJob; ready: boolean } | null {
    const p = this.pending;
    return p && { id: p.id, job: p.job, ready: p.settled !== null };
  }

  /**
   * Once a turn, after any compaction: a job whose prefix changed is discarded (its span is read
   * again only when a write touched it), and past the soft threshold a new one is submitted.
   */
  async tick(session: GuardedContext): Promise<void> {
    const { config, log, guard } = session;
    const state = log.record.state;
    if (this.pending) {
      if (this.pending.settled?.state === 'failed') await this.discard(session, 'failed');
      else {
        const { basis } = this.pending.job;
        const reason = staleReason(basis, state, this.pending.touched ? log.active : null);
        this.pending.touched = false;
        if (reason === null) return;
        await this.discard(session, reason);
      }
    }
    const tokens = session.estimate().tokens;
    if (!pastSoft(tokens, config.budget, this.soft)) return;
    if (this.idle && this.idle.pivotId === state.pivotId && tokens <= this.idle.tokens) return;
    if (this.starting || !log.whole || guard.stopped || guard.suspended(tokens, config.budget)) return;
    this.starting = true; // two prepare() calls at once must not queue two jobs
    try {
      const plan = softPlan(session, tokens);
      if (isNothingToCompact(plan)) return this.rest(session, tokens);
      const job = buildJob(session, plan);
      const id = await this.queue.submit(job);
      const span = new Set(plan.toSummarize.map((e) => e.id));
      const pending: Pending = { id, job, span, touched: false, settled: null, outcome: this.queue.wait(id) };
      // A queue that cannot say (its database went away) has, for this session, failed the job.
      const failed = (error: unknown): JobOutcome => ({
        state: 'failed',
        error: redact(String(error), secretValues(process.env)),
      });
      pending.outcome = pending.outcome.catch(failed).then((outcome) => {
        pending.settled = outcome;
        if (outcome.state === 'done')
          session.events.emit('background:prepared', { jobId: id, millis: outcome.millis });
        return outcome;
      });
      this.pending = pending;
      session.events.emit('background:start', {
        jobId: id,
        tokens,
        summarizedThroughId: plan.summarizedThroughId,
      });
    } catch (error) {
      // The queue is down or the job would not serialize: the hard threshold compacts as usual.
      session.events.emit('warning', { message: 'a background summary could not be queued', error });
      this.rest(session, tokens);
    } finally {
      this.starting = false;
    }
  }

  /**
   * An automatic compaction: the prepared summary committed as the pivot when its prefix is
   * unchanged (waiting for it if it is still being written), else null and the job discarded.
   */
  async apply(
    session: StepContext,
    opts: { auto: boolean; markerId?: string; signal?: AbortSignal },
  ): Promise<CompactionOutcome | null> {
    const pending = this.pending;
    if (!pending) return null;
    const { config, log } = session;
    const { basis, plan } = pending.job;
    const started = Date.now();
    if (staleReason(basis, log.record.state, null)) return this.discard(session, 'pivot-moved');
    // Still being written: it had a head start over a summary begun now.
    const outcome = pending.settled ?? (await untilAborted(pending.outcome, opts.signal));
    const waitedMillis = Date.now() - started;
    if (outcome.state === 'failed') return this.discard(session, 'failed');
    const stale = staleReason(basis, log.record.state, log.active);
    if (stale) return this.discard(session, stale);
    const figures = compactionFigures(session);
    const { tokensBefore } = figures;
    if ((await config.hooks.beforeCompact?.({ auto: opts.auto, tokensBefore })) === false)
      return { status: 'skipped', reason: 'cancelled by the beforeCompact hook' };
    session.events.emit('compaction:start', { auto: opts.auto, reason: 'background', tokensBefore });
    // The span as summarized: the window up to the job's last entry, without the kept tail.
    const spanView = () =>
      summarizedView(
        config,
        log.active.filter((e) => e.seq <= basis.throughSeq),
        plan,
      );
    const summary = storedSummary(session, outcome.summary.text, plan, spanView);
    const committed = await commitPivot(
      session,
      {
        plan,
        summary,
        details: outcome.summary.details,
        auto: opts.auto,
        markerId: opts.markerId,
        previousPivotId: basis.pivotId,
        figures,
        summarizer: outcome.summary.summarizer,
      },
      {
        holds: (active) => spanHolds(basis, active),
        // Applied only if the request then fits: else a summary of the whole window does better.
        enough: (after) => after < tokensBefore && !beforeTurnDecision(after, config.budget).compact,
      },
    );
    if ('dropped' in committed) {
      if (committed.dropped === 'raced')
        return { status: 'skipped', reason: 'another worker compacted this session first' };
      return this.discard(session, committed.dropped === 'stale' ? 'span-changed' : 'not-enough');
    }
    this.pending = null;
    await this.forget(session, pending.id);
    const { pivot, tokensAfter } = committed;
    session.events.emit('background:applied', { jobId: pending.id, pivot, waitedMillis });
    return finishCompaction(session, pivot, { auto: opts.auto, summary, tokensBefore, tokensAfter, started });
  }

  private rest(session: StepContext, tokens: number): void {
    const growth = RETRY_GROWTH * (session.config.budget.limit ?? 0);
    this.idle = { pivotId: session.log.record.state.pivotId, tokens: tokens + growth };
  }

  private async discard(session: StepContext, reason: DiscardReason): Promise<null> {
    const pending = this.pending;
    if (!pending) return null;
    this.pending = null;
    this.discarded += 1;
    if (reason === 'failed') this.rest(session, session.estimate().tokens);
    await this.forget(session, pending.id);
    session.events.emit('background:discarded', { jobId: pending.id, reason, discarded: this.discarded });
    return null;
  }

  private async forget(session: StepContext, id: string): Promise<void> {
    try {
      await this.queue.cancel(id);
    } catch (error) {
      session.events.emit('warning', { message: `background job ${id} could not be cancelled`, error });
    }
  }
}
