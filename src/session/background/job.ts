import { createHash } from 'node:crypto';
import {
  buildSummaryRequest,
  type CompactionPlan,
  isMarkerOnly,
  type Summarizer,
  type SummaryCall,
  type SummaryResult,
} from '../../compact/index.js';
import type { Entry } from '../../model/entry.js';
import type { Message } from '../../model/message.js';
import type { SessionState } from '../../model/session.js';
import { type BudgetCountInput, budgetCounter } from '../../tokens/budget-count.js';
import { type Estimator, heuristicEstimator } from '../../tokens/estimator.js';
import { seedCall } from '../seed-call.js';

/**
 * A background summary in three steps, as pi's compaction does it: prepare (a typed, plain-data
 * job, made on the agent's path from the session as it is), summarize (anywhere: this process or
 * a queue worker elsewhere, from the job alone — never from the Session), apply (at the hard
 * threshold, only if the prefix the job covers is still what it was).
 */

/** The prefix a job summarizes, as it was when the job was made: what must not change before applying it. */
export interface PrefixBasis {
  /** The pivot the window started from (the job summarizes it again, recursively). */
  pivotId: string | null;
  activeFromSeq: number;
  /** Seq of the last summarized entry; entries after it are kept after the pivot, whatever they are. */
  throughSeq: number;
  /** How many message entries the span holds, and a digest of their content (a prune changes it). */
  count: number;
  digest: string;
}

/** Everything a worker needs: plain data only, so a job crosses a process boundary as JSON. */
export interface SummaryJob {
  sessionId: string;
  basis: PrefixBasis;
  plan: CompactionPlan;
  instructions?: string;
  appendix?: boolean;
  /** A preset's summary call (`compaction.summaryCall`): made of the span as the model saw it. */
  call?: { spec: SummaryCall; view: Message[]; agent: { system?: string; tools?: unknown } };
  /** The summary's size limit and how the provider's count is made (plain data: see budget-count). */
  budget?: { tokens: number; count: Omit<BudgetCountInput, 'estimator'> };
}

/** A finished job: the summarizer's result and who wrote it (the pivot records both). */
export interface PreparedSummary extends SummaryResult {
  summarizer: { name: string; model?: string };
}

/** The summarized span of a window: its message entries (queued tasks aside) up to `throughSeq`. */
export function spanOf(active: readonly Entry[], throughSeq: number): Entry[] {
  return active.filter((e) => e.kind === 'message' && e.seq <= throughSeq && !isMarkerOnly(e));
}

/** JSON with keys in sorted order: an entry read back from a store may list its keys otherwise. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function digestOf(span: readonly Entry[]): string {
  const hash = createHash('sha256');
  for (const entry of span) hash.update(canonical(entry));
  return hash.digest('base64url');
}

export function basisOf(state: SessionState, active: readonly Entry[], plan: CompactionPlan): PrefixBasis {
  const through = active.find((e) => e.id === plan.summarizedThroughId);
  if (!through) throw new Error(`summarized entry ${plan.summarizedThroughId} is not in the window`);
  const span = spanOf(active, through.seq);
  return {
    pivotId: state.pivotId,
    activeFromSeq: state.activeFromSeq,
    throughSeq: through.seq,
    count: span.length,
    digest: digestOf(span),
  };
}

export type StaleReason = 'pivot-moved' | 'span-changed';

/**
 * Why a job's prefix is no longer the session's, or null while it is. Without `active` only the
 * O(1) check (another compaction happened); with it, the span's entries too (a prune, a late tool
 * result), which reads the span: done when a job is about to be applied or after a prune.
 */
export function staleReason(
  basis: PrefixBasis,
  state: SessionState,
  active: readonly Entry[] | null,
): StaleReason | null {
  if (state.pivotId !== basis.pivotId || state.activeFromSeq !== basis.activeFromSeq) return 'pivot-moved';
  return active === null || spanHolds(basis, active) ? null : 'span-changed';
}

/** Whether the window's summarized span is still, entry for entry, the one the job was made of. */
export function spanHolds(basis: PrefixBasis, active: readonly Entry[]): boolean {
  const span = spanOf(active, basis.throughSeq);
  return span.length === basis.count && digestOf(span) === basis.digest;
}

/** The worker's step: a job in, a summary out. Reads nothing but the job. */
export async function summarizeJob(
  job: SummaryJob,
  summarizer: Summarizer,
  estimator?: Estimator,
  signal?: AbortSignal,
): Promise<PreparedSummary> {
  const { budget } = job;
  const request = buildSummaryRequest(job.plan, {
    instructions: job.instructions,
    appendix: job.appendix,
    ...(estimator ? { estimator } : {}),
    ...(budget
      ? {
          budget: {
            tokens: budget.tokens,
            count: budgetCounter({ ...budget.count, estimator: estimator ?? heuristicEstimator() }),
          },
        }
      : {}),
  });
  if (job.call) request.call = seedCall(job.call.spec, job.call.view, job.call.agent);
  const { text, details } = await summarizer.summarize(request, signal);
  const model = summarizer.model;
  return { text, details, summarizer: { name: summarizer.name, ...(model ? { model } : {}) } };
}
