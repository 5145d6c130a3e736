import { isMarkerOnly } from '../compact/turns.js';
import type { Entry } from '../model/entry.js';
import { isFinishedTool } from '../model/parts.js';
import { type Calibration, emptySessionState, type SessionState, type Usage } from '../model/session.js';
import {
  calibrationAfterCompaction,
  hybridEstimate,
  type TokenEstimate,
  updateCalibration,
} from '../tokens/calibration.js';

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
    calibration: Object.fromEntries(
      Object.entries(state.calibration).map(([model, c]) => [model, calibrationAfterCompaction(c)]),
    ),
  };
}

/** What a request contained, in raw estimate tokens: what its reported usage is compared with. */
export interface SentRaw {
  logRaw: number;
  overheadRaw: number;
}

/**
 * After a request's usage arrived (its reply already appended): the calibration learns from what
 * was sent, and, while that prompt is still the current context (`current`), the usage becomes the
 * base of the next estimate, with everything the view gained since the request as the delta.
 */
export function afterUsage(
  state: SessionState,
  usage: Usage,
  model: string,
  sent: SentRaw,
  afterSeq: number,
  current = true,
): SessionState {
  const calibration = updateCalibration(state.calibration[model], {
    reportedInput: usage.inputTotal,
    logRaw: sent.logRaw,
    overheadRaw: sent.overheadRaw,
  });
  const next = { ...state, calibration: { ...state.calibration, [model]: calibration } };
  if (!current) return next;
  return {
    ...next,
    lastUsage: { usage, model, afterSeq },
    addedSinceUsage: state.activeTokens - sent.logRaw,
  };
}

/** The calibration the next estimate uses: that of the last reported usage's model, else the session's. */
export function currentCalibration(state: SessionState, model: string): Calibration | undefined {
  return state.calibration[state.lastUsage?.model ?? model];
}

/**
 * The next prompt's size from the running figures: last reported prompt + calibrated delta.
 * `local` (Pegasus): the raw local estimate instead, of what came since the last prompt or of the
 * session's entries, with no learned ratio, residual or declared overhead.
 */
export function nextPromptEstimate(
  state: SessionState,
  model: string,
  overheadRaw: number,
  local = false,
): TokenEstimate {
  return hybridEstimate({
    lastUsage: state.lastUsage,
    addedSinceUsage: state.addedSinceUsage,
    activeRaw: state.activeTokens,
    overheadRaw: local ? 0 : overheadRaw,
    calibration: local ? undefined : currentCalibration(state, model),
  });
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
  // The calibration is learned, not derived from the entries: it stays as given.
  return { ...state, calibration, lastUsage: null, addedSinceUsage: 0 };
}
