import type { Entry } from '../model/entry.js';
import { isFinishedTool } from '../model/parts.js';
import {
  appendsKeepPlan,
  applyPrune,
  type PrunePlan,
  PruneScope,
  planPrune,
  planPruneScan,
  type ResolvedPruneOptions,
  shouldPlanPrune,
  withUpdates,
} from '../prune/index.js';
import { batchToApply, staleCheckDue } from './cache-policy.js';
import { afterReplace } from './state.js';
import type { StepContext } from './step-context.js';

/** The unpruned tool-output total and log position at which a batched prune check found nothing. */
export interface PruneCheck {
  total: number;
  nextSeq: number;
  /** The plan that check made and the window it read, kept while only appends follow (see heldPlan). */
  planned?: PlannedOver;
}

/** A batch's plan, with the window array it was made over and how far into it that went. */
interface PlannedOver {
  plan: PrunePlan;
  active: readonly Entry[];
  length: number;
  last: Entry | undefined;
}

/**
 * The last batch's plan when it still holds: the same window array (a write that changes or drops
 * entries makes a new one; appends push onto it), the same newest entry where it ended, and the
 * entries appended since leave it as it was (appendsKeepPlan). Null: plan again.
 */
function heldPlan(
  held: PlannedOver | undefined,
  active: readonly Entry[],
  config: ResolvedPruneOptions,
): PrunePlan | null {
  if (held === undefined || held.active !== active) return null;
  if (active.length < held.length || active[held.length - 1] !== held.last) return null;
  return appendsKeepPlan(active.slice(held.length), config) ? held.plan : null;
}

export interface PruneInput extends StepContext {
  /** Where the last check stood: a batch is not planned again until the total or the log moved. */
  readonly pruneCheckedAt: PruneCheck | null;
}

/** The prune's outcome (null: nothing was planned) and, after a write, where this check stood. */
export interface PruneRun {
  outcome: PruneOutcome | null;
  checkedAt?: PruneCheck;
}

export interface PruneOutcome {
  dryRun: boolean;
  parts: number;
  tokensSaved: number;
  plan: PrunePlan;
}

/**
 * Plans and applies pruning in one batched write. In batch mode (every turn) it plans only when
 * the O(1) running total says a batch could be due, and not again until that total has grown.
 */
export async function runPrune(
  session: PruneInput,
  opts: { dryRun?: boolean; batch?: boolean },
): Promise<PruneRun> {
  const config = session.config.prune;
  if (!config) return { outcome: null };
  const total = session.log.record.state.unprunedToolTokens;
  const nextSeq = session.log.record.nextSeq;
  const memo = session.pruneCheckedAt;
  // Nothing changed since the last check found nothing: neither the outputs nor the turns.
  const unchanged = memo !== null && memo.total === total && memo.nextSeq === nextSeq;
  const cacheInput = () => ({
    config: session.config,
    active: session.log.active,
    estimate: session.estimate(),
  });
  const due = shouldPlanPrune(total, config) || staleCheckDue(cacheInput());
  if (opts.batch && (!due || unchanged)) {
    // A plan over a window array the log has since replaced is never kept again: let it go.
    const gone = memo?.planned !== undefined && memo.planned.active !== session.log.active;
    return gone
      ? { outcome: null, checkedAt: { total: memo.total, nextSeq: memo.nextSeq } }
      : { outcome: null };
  }
  // A per-turn batch prunes what is held (a window held in part is about to be compacted); a
  // prune asked for outright covers the whole window.
  if (!opts.batch) await session.log.loadWhole();
  if (opts.dryRun) {
    const plan = planPrune(new PruneScope(session.log.active).toArray(), config);
    const parts = plan.prune ? plan.marks.length : 0;
    return { outcome: { dryRun: true, parts, tokensSaved: plan.prune ? plan.prunableTokens : 0, plan } };
  }
  // Qwery erases old outputs to free storage, summaries are skipped rather than a boundary:
  // outside the per-turn path, the scan then reaches entries before the window too.
  const wholeLog = !opts.batch && config.mode === 'erase' && config.onSummary === 'skip';
  const older = wholeLog ? await olderThanWindow(session) : [];
  let outcome: PruneOutcome | null = null;
  let kept: PlannedOver | undefined;
  await session.log.mutate((record, active) => {
    kept = undefined;
    const from = record.state.activeFromSeq;
    const scope = new PruneScope(active, older.length > 0 ? older.filter((e) => e.seq < from) : []);
    const held = opts.batch ? heldPlan(memo?.planned, active, config) : null;
    const planned = held ?? planPruneScan(scope.newestFirst(), config);
    // A per-turn batch applies what the cost rules choose (the plan, the older turns' outputs, or
    // nothing while it would cost more in invalidated cache than it saves).
    const chosen = opts.batch ? batchToApply({ ...cacheInput(), active }, scope, config, planned) : planned;
    const plan = chosen ?? planned;
    outcome = { dryRun: false, parts: 0, tokensSaved: 0, plan };
    // What the whole-log scan finished with is remembered, so the next open reads only from the
    // oldest output below the window that is still kept (protected now, prunable later).
    const marked = new Set(plan.prune ? plan.marks.map((m) => `${m.entryId}#${m.partIndex}`) : []);
    const stillKept = older.find(
      (e) =>
        e.seq < from &&
        e.kind === 'message' &&
        e.message.parts.some(
          (p, i) =>
            isFinishedTool(p) &&
            p.compactedAt === undefined &&
            !config.protectedTools.includes(p.name) &&
            !marked.has(`${e.id}#${i}`),
        ),
    );
    const erasedBelowSeq = stillKept?.seq ?? from;
    const scanned =
      wholeLog && (record.state.erasedBelowSeq ?? 0) !== erasedBelowSeq ? { erasedBelowSeq } : {};
    if (chosen === null || !plan.prune || plan.marks.length === 0) {
      if (opts.batch) kept = { plan: planned, active, length: active.length, last: active.at(-1) };
      return Object.keys(scanned).length > 0 ? { append: [], state: { ...record.state, ...scanned } } : null;
    }
    const byId = scope.find(new Set(plan.marks.map((m) => m.entryId)));
    const updates = applyPrune(byId, plan, config, session.config.now(), session.config.estimator);
    const was = updates.map((u) => byId.get(u.entryId)!);
    const now = withUpdates(was, updates);
    // The view's figures move with the entries in the window; the log's total with all of them.
    const inView = (e: Entry) => e.seq >= from;
    let state = afterReplace(record.state, was.filter(inView), now.filter(inView));
    const outside = now.filter((e) => !inView(e)).reduce((a, e) => a + e.tokens, 0);
    const outsideBefore = was.filter((e) => !inView(e)).reduce((a, e) => a + e.tokens, 0);
    state = { ...state, totalTokens: state.totalTokens + outside - outsideBefore, ...scanned };
    outcome = {
      dryRun: false,
      parts: plan.marks.length,
      tokensSaved: record.state.activeTokens - state.activeTokens,
      plan,
    };
    return { update: updates, state };
  });
  const { record } = session.log;
  const checkedAt = { total: record.state.unprunedToolTokens, nextSeq: record.nextSeq };
  return { outcome, checkedAt: kept === undefined ? checkedAt : { ...checkedAt, planned: kept } };
}

/** Entries below the window that no whole-log scan has seen yet. */
async function olderThanWindow(session: StepContext): Promise<Entry[]> {
  const { activeFromSeq, erasedBelowSeq = 0 } = session.log.record.state;
  if (activeFromSeq <= erasedBelowSeq) return [];
  return (await session.log.store.loadFrom(session.id, erasedBelowSeq)).filter((e) => e.seq < activeFromSeq);
}
