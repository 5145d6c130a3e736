import { type CompactionPlan, isMarkerOnly, NoProgressError } from '../compact/index.js';
import { buildCompactionEntry } from '../model/build.js';
import type { CompactionEntry, Entry, Pivot } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import type { Estimator } from '../tokens/estimator.js';
import type { Write } from './log.js';
import { afterPivot } from './state.js';

/** A finished summary waiting to be committed, and what the compaction started from. */
export interface PivotDraft {
  plan: CompactionPlan;
  summary: string;
  details: Pivot['details'];
  /** The pivot the plan followed: the fence. Another pivot committed since drops this one. */
  previousPivotId: string | null;
  fields: Pick<Pivot, 'auto' | 'summarizer' | 'model'> & { markerId: string | undefined };
  /** The estimate when the compaction started, and the window's raw tokens then. */
  tokensBefore: number;
  activeTokensAtPlan: number;
  /** Provider tokens of a request whose log part is `raw` estimated tokens (overhead included). */
  requestTokens: (raw: number) => number;
  /** Provider tokens of `raw` estimated log tokens alone. */
  calibrated: (raw: number) => number;
  createdAt: number;
  estimator: Estimator;
}

export interface PivotCommit {
  write: Write<CompactionEntry>;
  entry: CompactionEntry;
  tokensBefore: number;
  tokensAfter: number;
}

/**
 * The pivot write against the session as it is at commit time (Log.mutate calls this again after
 * every lost race), or null when another worker compacted first. The summary covers the plan's
 * span only: whatever was appended while it was written (by any worker) comes after that span,
 * so it is in the kept part, counted in the view's tokens, and never summarized away.
 */
export function pivotWrite(record: SessionRecord, active: Entry[], draft: PivotDraft): PivotCommit | null {
  // Another worker compacted first: theirs stands, ours is dropped (exactly one compaction).
  if (record.state.pivotId !== draft.previousPivotId) return null;
  const { plan } = draft;
  const firstKept = firstKeptEntry(active, plan);
  if (plan.firstKeptId !== null && firstKept === undefined)
    throw new Error(`compaction: the first kept entry ${plan.firstKeptId} is not in the window held`);
  // What arrived since the plan grew the context the pivot replaces: without it, a busy session
  // would look as if compacting made nothing smaller.
  const tokensBefore =
    draft.tokensBefore + draft.calibrated(record.state.activeTokens - draft.activeTokensAtPlan);
  const { auto, summarizer, model, markerId } = draft.fields;
  // In the order pivots have always been stored in, so their JSON stays byte-identical.
  const pivot: Pivot = {
    summary: draft.summary,
    summarizedThroughId: plan.summarizedThroughId,
    firstKeptId: firstKept?.id ?? null,
    tokensAfter: 0,
    details: draft.details,
    tokensBefore,
    auto,
    summarizer,
    model,
    previousPivotId: draft.previousPivotId,
    markerId: markerId ?? record.state.pendingMarkerId ?? undefined,
  };
  const entry = buildCompactionEntry(
    pivot,
    { sessionId: record.id, seq: record.nextSeq, parentId: record.headId, createdAt: draft.createdAt },
    draft.estimator,
  );
  const visible = firstKept ? active.filter((e) => e.seq >= firstKept.seq && isShown(e)) : [];
  const tokensAfter = draft.requestTokens(entry.tokens + visible.reduce((a, e) => a + e.tokens, 0));
  if (tokensAfter >= tokensBefore) throw new NoProgressError({ tokensBefore, predictedAfter: tokensAfter });
  pivot.tokensAfter = tokensAfter;
  const state = afterPivot(record.state, entry, visible, firstKept?.seq ?? entry.seq);
  return { write: { append: [entry], state }, entry, tokensBefore, tokensAfter };
}

function isShown(e: Entry): boolean {
  return e.kind === 'message' && !isMarkerOnly(e);
}

/** The plan's first kept entry, or (keep-none layouts) the first message appended while summarizing. */
function firstKeptEntry(active: Entry[], plan: CompactionPlan): Entry | undefined {
  if (plan.firstKeptId) return active.find((e) => e.id === plan.firstKeptId);
  const through = active.find((e) => e.id === plan.summarizedThroughId);
  return active.find((e) => through !== undefined && e.seq > through.seq && isShown(e));
}
