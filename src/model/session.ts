import type { JsonObject, JsonValue } from './json.js';

/** Provider usage normalized so that `inputTotal` is the whole prompt, cached part included. */
export interface Usage {
  inputTotal: number;
  cacheRead: number;
  cacheWrite: number;
  /** All generated tokens, reasoning included. */
  output: number;
  /** The reasoning share of `output`. */
  reasoning: number;
}

/** Learned per model: provider tokens per estimated token, and the estimated fixed overhead. */
export interface Calibration {
  ratio: number;
  /** Raw-estimate tokens of what the agent sends besides the log (system prompt, tool schemas). */
  overheadRaw: number;
  /** Provider tokens the prompt had beyond ratio × (log + known overhead), learned from usage. */
  residual: number;
  samples: number;
  /** The previous sample (raw log estimate, reported tokens): the slope to the next one is the ratio. */
  anchorRaw?: number;
  anchorTokens?: number;
  /** The smallest residual since the last compaction: the overhead every request carried. */
  residualLow?: number;
}

/**
 * Running figures kept with the session so that no per-turn check rescans history. Every number
 * is a raw estimate (the session estimator's tokens) unless named otherwise.
 */
export interface SessionState {
  /** Seq of the first entry the model's view needs (pivot's first kept entry, or 0). */
  activeFromSeq: number;
  /** Id of the latest compaction entry. */
  pivotId: string | null;
  /** Estimated tokens of the current view (after the pivot, pruned outputs excluded). */
  activeTokens: number;
  /** Estimated tokens of finished, unpruned tool outputs in the view: the O(1) prune trigger. */
  unprunedToolTokens: number;
  /** Estimated tokens of every entry of the log, as each is stored now (pruning lowers it). */
  totalTokens: number;
  entryCount: number;
  /** The latest usage a provider reported, with the seq of the first entry added after its request. */
  lastUsage: { usage: Usage; model?: string; afterSeq: number } | null;
  /** Estimated tokens appended since the request that produced `lastUsage`. */
  addedSinceUsage: number;
  calibration: Record<string, Calibration>;
  /** Id of a queued compaction task message (a user message with a `compaction` part) not yet answered by a pivot. */
  pendingMarkerId: string | null;
  /**
   * How many writes replaced parts of stored entries (pruning, a tool result arriving). A writer
   * whose record is behind reads only the entries appended since, unless this (or the pivot) moved.
   */
  rewrites?: number;
  /** The last rewrites (up to 16): [its number in `rewrites`, the lowest seq it replaced parts of]. */
  rewritten?: [number, number][];
  /** Erase-mode pruning of the whole log (Qwery) has scanned every entry below this seq. */
  erasedBelowSeq?: number;
  /**
   * An integration's position in its caller's own message list (the AI SDK middleware's prompt
   * cursor), opaque to the session and written in the same write as the entries it accounts for.
   */
  cursor?: JsonValue;
}

export interface SessionRecord {
  id: string;
  createdAt: number;
  updatedAt: number;
  headId: string | null;
  /** Incremented by every write; stores use it for compare-and-swap. */
  version: number;
  nextSeq: number;
  metadata: JsonObject;
  state: SessionState;
}

export function emptySessionState(): SessionState {
  return {
    activeFromSeq: 0,
    pivotId: null,
    activeTokens: 0,
    unprunedToolTokens: 0,
    totalTokens: 0,
    entryCount: 0,
    lastUsage: null,
    addedSinceUsage: 0,
    calibration: {},
    pendingMarkerId: null,
  };
}
