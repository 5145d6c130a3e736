import type { Entry } from '../model/entry.js';
import { isFinishedTool } from '../model/parts.js';
import {
  applyPrune,
  type PrunePlan,
  PruneScope,
  planPrune,
  planPruneScan,
  shouldPlanPrune,
  withUpdates,
} from '../prune/index.js';
import type { Session } from './session.js';
import { afterReplace } from './state.js';

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
  session: Session,
  opts: { dryRun?: boolean; batch?: boolean },
): Promise<PruneOutcome | null> {
  const config = session.config.prune;
  if (!config) return null;
  const total = session.log.record.state.unprunedToolTokens;
  const nextSeq = session.log.record.nextSeq;
  const memo = session.pruneCheckedAt;
  // Nothing changed since the last check found nothing: neither the outputs nor the turns.
  const unchanged = memo !== null && memo.total === total && memo.nextSeq === nextSeq;
  if (opts.batch && (!shouldPlanPrune(total, config) || unchanged)) return null;
  // A per-turn batch prunes what is held (a window held in part is about to be compacted); a
  // prune asked for outright covers the whole window.
  if (!opts.batch) await session.log.loadWhole();
  if (opts.dryRun) {
    const plan = planPrune(new PruneScope(session.log.active).toArray(), config);
    return {
      dryRun: true,
      parts: plan.prune ? plan.marks.length : 0,
      tokensSaved: plan.prune ? plan.prunableTokens : 0,
      plan,
    };
  }
  // Seed 000 erases old outputs to free storage, summaries are skipped rather than a boundary
  // (A000-07): outside the per-turn path, the scan then reaches entries before the window too.
  const wholeLog = !opts.batch && config.mode === 'erase' && config.onSummary === 'skip';
  const older = wholeLog ? await olderThanWindow(session) : [];
  let outcome: PruneOutcome | null = null;
  await session.log.mutate((record, active) => {
    const from = record.state.activeFromSeq;
    const scope = new PruneScope(active, older.length > 0 ? older.filter((e) => e.seq < from) : []);
    const plan = planPruneScan(scope.newestFirst(), config);
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
    if (!plan.prune || plan.marks.length === 0) {
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
  session.pruneCheckedAt = {
    total: session.log.record.state.unprunedToolTokens,
    nextSeq: session.log.record.nextSeq,
  };
  return outcome;
}

/** Entries below the window that no whole-log scan has seen yet. */
async function olderThanWindow(session: Session): Promise<Entry[]> {
  const { activeFromSeq, erasedBelowSeq = 0 } = session.log.record.state;
  if (activeFromSeq <= erasedBelowSeq) return [];
  return (await session.log.store.loadFrom(session.id, erasedBelowSeq)).filter((e) => e.seq < activeFromSeq);
}
