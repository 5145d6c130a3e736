import { isMarkerOnly } from '../compact/turns.js';
import type { Entry } from '../model/entry.js';
import { isFinishedTool } from '../model/parts.js';
import { emptySessionState, type SessionState } from '../model/session.js';

/**
 * Pure updates of the running figures a session keeps, so that a turn never rescans history.
 * Each takes the previous state and what was written, and returns the next state.
 */

/** Tokens of finished, unpruned tool outputs in one entry: what pruning could still remove. */
export function unprunedToolTokens(entry: Entry): number {
  if (entry.kind !== 'message') return 0;
  let total = 0;
  entry.message.parts.forEach((part, i) => {
    if (isFinishedTool(part) && part.compactedAt === undefined) total += entry.partTokens[i] ?? 0;
  });
  return total;
}

export function afterAppend(state: SessionState, entries: Entry[]): SessionState {
  let added = 0;
  let visible = 0;
  let tools = 0;
  for (const entry of entries) {
    added += entry.tokens;
    // A queued marker is an instruction to condense; the model never sees it.
    if (!(entry.kind === 'message' && isMarkerOnly(entry))) visible += entry.tokens;
    tools += unprunedToolTokens(entry);
  }
  return {
    ...state,
    activeTokens: state.activeTokens + visible,
    unprunedToolTokens: state.unprunedToolTokens + tools,
    totalTokens: state.totalTokens + added,
    entryCount: state.entryCount + entries.length,
    addedSinceUsage: state.addedSinceUsage + visible,
  };
}

/** After entries were replaced in place (pruning, a tool result arriving): adjust by the difference. */
export function afterReplace(state: SessionState, before: Entry[], after: Entry[]): SessionState {
  const sum = (list: Entry[], f: (e: Entry) => number) => list.reduce((acc, e) => acc + f(e), 0);
  const tokenDelta = sum(after, (e) => e.tokens) - sum(before, (e) => e.tokens);
  const toolDelta = sum(after, unprunedToolTokens) - sum(before, unprunedToolTokens);
  return {
    ...state,
    activeTokens: Math.max(0, state.activeTokens + tokenDelta),
    unprunedToolTokens: Math.max(0, state.unprunedToolTokens + toolDelta),
    totalTokens: Math.max(0, state.totalTokens + tokenDelta),
    // Signed: a prune after the last usage makes the next prompt smaller than that usage said.
    addedSinceUsage: state.addedSinceUsage + tokenDelta,
  };
}

/**
 * After a pivot: the view is the pivot plus the kept and newer entries. Those are in memory
 * (bounded by the window), so their sums are recomputed here rather than tracked.
 */
export function afterPivot(
  state: SessionState,
  pivot: Entry,
  visible: Entry[],
  activeFromSeq: number,
): SessionState {
  return {
    ...state,
    activeFromSeq,
    pivotId: pivot.id,
    activeTokens: pivot.tokens + visible.reduce((acc, e) => acc + e.tokens, 0),
    unprunedToolTokens: visible.reduce((acc, e) => acc + unprunedToolTokens(e), 0),
    totalTokens: state.totalTokens + pivot.tokens,
    entryCount: state.entryCount + 1,
    // The provider's last count described the old context; until the next call the estimate
    // falls back to the calibrated local count.
    lastUsage: null,
    addedSinceUsage: 0,
    pendingMarkerId: null,
  };
}

/** Rebuilds the running figures from a whole log (import of an exported session, repair tools). */
export function stateFromEntries(entries: Entry[], base: SessionState): SessionState {
  const { calibration, pendingMarkerId } = base;
  let state: SessionState = { ...base, ...emptySessionState(), calibration, pendingMarkerId };
  let visible: Entry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'compaction') {
      const firstKept = entry.pivot.firstKeptId;
      const from = firstKept ? (entries.find((e) => e.id === firstKept)?.seq ?? entry.seq) : entry.seq;
      visible = entries.filter(
        (e) => e.kind === 'message' && !isMarkerOnly(e) && e.seq >= from && e.seq < entry.seq,
      );
      state = afterPivot(state, entry, visible, from);
    } else {
      state = afterAppend(state, [entry]);
    }
  }
  return { ...state, lastUsage: null, addedSinceUsage: 0 };
}
