import { type CompactionPlan, isMarkerOnly, LAST_REQUEST_PREFIX, NoProgressError } from '../compact/index.js';
import { buildCompactionEntry } from '../model/build.js';
import type { CompactionEntry, Entry, Pivot, PivotDetails } from '../model/entry.js';
import type { Message } from '../model/message.js';
import { afterPivot, currentCalibration } from './state.js';
import type { StepContext } from './step-context.js';

/**
 * The second half of a compaction, shared by the one that summarizes on the agent's path and the
 * one that applies a summary prepared in the background: the pivot is written in one
 * compare-and-swap write, then the steps that may fail without undoing it.
 */

export type CompactionOutcome =
  | {
      status: 'compacted';
      pivot: CompactionEntry;
      summary: string;
      tokensBefore: number;
      tokensAfter: number;
      millis: number;
    }
  | { status: 'skipped'; reason: string };

/** The figures a compaction's numbers rest on, taken when it starts. */
export interface CompactionFigures {
  tokensBefore: number;
  /** The learned provider/local ratio: raw log tokens × ratio = provider tokens. */
  ratio: number;
  /** Provider tokens outside the log that stay after compaction: system prompt, tools, residual. */
  overhead: number;
  /** The window's raw tokens then: what is appended while the summary is written counts on top. */
  activeTokens: number;
  /** Whether `ratio` was learned from reported usage (else it is the prior). */
  calibrated: boolean;
}

export function compactionFigures(session: StepContext): CompactionFigures {
  const { config, log } = session;
  const estimate = session.estimate();
  // Besides the declared system prompt and tools, the provider counted tokens the log cannot
  // explain (the calibration residual): they stay after compaction too.
  const state = log.record.state;
  const calibration = currentCalibration(state, config.model);
  const residual = calibration?.residual ?? 0;
  const overhead = Math.ceil(session.overheadRaw * estimate.ratio + Math.max(0, residual));
  return {
    tokensBefore: estimate.tokens,
    ratio: estimate.ratio,
    overhead,
    activeTokens: state.activeTokens,
    calibrated: calibration !== undefined && config.checks.estimate !== 'local',
  };
}

/** Everything a pivot is made of except where it lands, which the write decides. */
export interface PivotDraft {
  plan: CompactionPlan;
  summary: string;
  details: PivotDetails;
  auto: boolean;
  markerId?: string;
  previousPivotId: string | null;
  figures: CompactionFigures;
  /** Who wrote the summary (the pivot's `summarizer` and `model` fields). */
  summarizer: { name: string; model?: string };
}

/** A prepared summary's conditions, checked inside the write (it may be retried after a race). */
export interface CommitChecks {
  /** The summarized span is still what was summarized. */
  holds?: (active: Entry[]) => boolean;
  /** Whether a pivot leaving `tokensAfter` is worth writing; false drops it without an error. */
  enough?: (tokensAfter: number) => boolean;
}

export type Committed =
  | { pivot: CompactionEntry; tokensBefore: number; tokensAfter: number }
  | { dropped: 'raced' | 'stale' | 'not-enough' };

export async function commitPivot(
  session: StepContext,
  draft: PivotDraft,
  checks: CommitChecks = {},
): Promise<Committed> {
  const { config, log } = session;
  const { plan, figures } = draft;
  let committed: Committed = { dropped: 'raced' };
  await log.mutate((record, active) => {
    committed = { dropped: 'raced' }; // a retried attempt must not report the entry of a failed one
    // Another worker compacted first: theirs stands, ours is dropped (exactly one compaction).
    if (record.state.pivotId !== draft.previousPivotId) return null;
    if (checks.holds && !checks.holds(active)) {
      committed = { dropped: 'stale' };
      return null;
    }
    const firstKept = firstKeptEntry(active, plan);
    if (plan.firstKeptId !== null && firstKept === undefined)
      throw new Error(`compaction: the first kept entry ${plan.firstKeptId} is not in the window held`);
    // What arrived since the plan (from any worker) comes after the summarized span: it is kept,
    // and it grew the context the pivot replaces — else a busy session would look as if
    // compacting made nothing smaller.
    const grown = Math.ceil((record.state.activeTokens - figures.activeTokens) * figures.ratio);
    const tokensBefore = figures.tokensBefore + Math.max(0, grown);
    const pivot: Pivot = pivotOf(
      draft,
      tokensBefore,
      draft.markerId ?? record.state.pendingMarkerId ?? undefined,
    );
    pivot.firstKeptId = firstKept?.id ?? null;
    const entry = buildCompactionEntry(
      pivot,
      { sessionId: record.id, seq: record.nextSeq, parentId: record.headId, createdAt: config.now() },
      config.estimator,
      config.compaction.countSummary?.(pivot.summary, config.estimator),
    );
    // A compaction of nothing but the summary call's prompt stands for what precedes it: itself.
    if (pivot.summarizedThroughId === '') pivot.summarizedThroughId = entry.id;
    const visible = firstKept
      ? active.filter((e) => e.seq >= firstKept.seq && e.kind === 'message' && !isMarkerOnly(e))
      : [];
    const raw = entry.tokens + visible.reduce((a, e) => a + e.tokens, 0);
    const tokensAfter = figures.overhead + Math.ceil(raw * figures.ratio);
    if (checks.enough && !checks.enough(tokensAfter)) {
      committed = { dropped: 'not-enough' };
      return null;
    }
    // A compaction of no message (Mistral Vibe's `[system]` alone) is asked for its own sake.
    const empty = plan.toSummarize.length === 0;
    if (tokensAfter >= tokensBefore && !empty)
      throw new NoProgressError({ tokensBefore, predictedAfter: tokensAfter });
    pivot.tokensAfter = tokensAfter;
    committed = { pivot: entry, tokensBefore, tokensAfter };
    return { append: [entry], state: afterPivot(record.state, entry, visible, firstKept?.seq ?? entry.seq) };
  });
  return committed;
}

/**
 * The summary as stored: the preset's `formatSummary`, else the text with the user's latest
 * request appended verbatim when neither the kept tail nor the text carries it (as Mistral Vibe's
 * last line does).
 */
export function storedSummary(
  session: StepContext,
  text: string,
  plan: CompactionPlan,
  spanView: () => Message[],
): string {
  const { formatSummary } = session.config.compaction;
  if (formatSummary) return formatSummary(text, { latestRequest: plan.latestUserRequest, view: spanView() });
  const request = plan.latestUserRequest;
  if (
    plan.requestInTail ||
    request === undefined ||
    request.trim() === '' ||
    text.includes(`${LAST_REQUEST_PREFIX}${request}`)
  )
    return text;
  return `${text.trimEnd()}\n\n${LAST_REQUEST_PREFIX}${request}`;
}

function pivotOf(draft: PivotDraft, tokensBefore: number, markerId: string | undefined): Pivot {
  // Key order as stored since the first release: exports and snapshots stay byte-identical.
  return {
    summary: draft.summary,
    summarizedThroughId: draft.plan.summarizedThroughId,
    firstKeptId: draft.plan.firstKeptId,
    tokensAfter: 0,
    details: draft.details,
    tokensBefore,
    auto: draft.auto,
    summarizer: draft.summarizer.name,
    model: draft.summarizer.model,
    previousPivotId: draft.previousPivotId,
    markerId,
  };
}

/** The plan's first kept entry, or (keep-none layouts) the first message appended while summarizing. */
function firstKeptEntry(active: Entry[], plan: CompactionPlan): Entry | undefined {
  if (plan.firstKeptId) return active.find((e) => e.id === plan.firstKeptId);
  const through = active.find((e) => e.id === plan.summarizedThroughId);
  // An empty span summarized through the pivot being written: what arrived meanwhile is all kept.
  const after = through?.seq ?? (plan.summarizedThroughId === '' ? -1 : Number.POSITIVE_INFINITY);
  return active.find((e) => e.seq > after && e.kind === 'message' && !isMarkerOnly(e));
}
