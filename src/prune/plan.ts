import type { Entry } from '../model/entry.js';
import { isEligibleToolPart, isPivotOrSummary, startsPruneTurn } from './eligible.js';
import type { ResolvedPruneOptions } from './options.js';

/** One tool part to mark: where it is and the estimate of its output (or error). */
export interface PruneMark {
  entryId: string;
  partIndex: number;
  tokens: number;
}

export interface PrunePlan {
  /** Parts to mark, oldest first; empty unless `prune`. */
  marks: PruneMark[];
  /** Estimated output tokens of every eligible part older than the protect window. */
  prunableTokens: number;
  /** Estimated output tokens of the eligible parts kept by the protect window. */
  protectedTokens: number;
  /** Whether `prunableTokens` beats `minimumTokens`, i.e. whether the marks are worth applying. */
  prune: boolean;
  reason: string;
}

/** Why the backward scan ended early, for the plan's reason. */
type Stop = { at: 'pivot' | 'marked'; entryId: string } | null;

/**
 * Decides which tool outputs to prune (Qwery and opencode), without touching anything.
 *
 * `entries` are in log order, typically the active window. The scan walks back from the newest
 * entry: the newest `protectTurns` user turns are skipped (neither counted nor pruned); then each
 * eligible tool part's estimate (`entry.partTokens[i]`, the output or error only) fills the protect
 * window, and once the window is full every older eligible part is a candidate — all of them,
 * however many share a message. A pivot/summary or an already-marked part stops or is skipped per
 * `onSummary` / `onMarked`. The candidates are marked only if their total beats `minimumTokens`.
 */
export function planPrune(entries: readonly Entry[], opts: ResolvedPruneOptions): PrunePlan {
  return planPruneScan(newestFirst(entries), opts);
}

function* newestFirst(entries: readonly Entry[]): Generator<Entry> {
  for (let i = entries.length - 1; i >= 0; i--) yield entries[i]!;
}

/** `planPrune` over entries given newest first (see PruneScope): it reads only as far as it must. */
export function planPruneScan(newestFirst: Iterable<Entry>, opts: ResolvedPruneOptions): PrunePlan {
  const candidates: PruneMark[] = [];
  let protectedTokens = 0;
  let prunableTokens = 0;
  let turnsSeen = 0;
  let stop: Stop = null;

  scan: for (const entry of newestFirst) {
    if (isPivotOrSummary(entry)) {
      if (opts.onSummary === 'stop') {
        stop = { at: 'pivot', entryId: entry.id };
        break;
      }
      continue;
    }
    if (entry.kind !== 'message') continue;
    if (startsPruneTurn(entry.message, opts.turnCounting)) turnsSeen++;
    const inProtectedTurn = turnsSeen < opts.protectTurns;
    const parts = entry.message.parts;
    for (let j = parts.length - 1; j >= 0; j--) {
      const part = parts[j]!;
      // A mark is the boundary of the previous prune even inside protected turns (idempotence).
      if (part.type === 'tool' && part.compactedAt !== undefined && opts.onMarked === 'stop') {
        stop = { at: 'marked', entryId: entry.id };
        break scan;
      }
      if (inProtectedTurn || !isEligibleToolPart(part, entry, opts)) continue;
      const tokens = entry.partTokens[j] ?? 0;
      if (keepsInWindow(protectedTokens + prunableTokens, tokens, opts)) {
        protectedTokens += tokens;
      } else {
        prunableTokens += tokens;
        candidates.push({ entryId: entry.id, partIndex: j, tokens });
      }
    }
  }

  const prune = candidates.length > 0 && beatsMinimum(prunableTokens, opts);
  return {
    marks: prune ? candidates.reverse() : [],
    prunableTokens,
    protectedTokens,
    prune,
    reason: describe(prune, candidates.length, prunableTokens, protectedTokens, stop, opts),
  };
}

/**
 * Whether entries appended after a plan was made leave that plan as it was, so that a turn need
 * not scan the window again. They do when none of them starts a turn, ends a scan (a pivot, a
 * summary, a marked part) or is anything but a message, and at least the newest turn is protected:
 * they then fall in that turn, which the scan skips, and every older entry is met with the turns,
 * window and candidates it was met with before. A long run of steps under one request (an agent
 * working alone for hours) is planned once, not once per step over a window that keeps growing.
 */
export function appendsKeepPlan(appended: readonly Entry[], opts: ResolvedPruneOptions): boolean {
  if (opts.protectTurns < 1) return false;
  for (const entry of appended) {
    if (entry.kind !== 'message' || isPivotOrSummary(entry)) return false;
    if (startsPruneTurn(entry.message, opts.turnCounting)) return false;
    if (entry.message.parts.some((p) => p.type === 'tool' && p.compactedAt !== undefined)) return false;
  }
  return true;
}

/**
 * Whether a part belongs to the protect window, given the eligible tokens `seenNewer` of the
 * parts after it. Once one part falls outside, every older one does too (the total only grows).
 */
function keepsInWindow(seenNewer: number, tokens: number, opts: ResolvedPruneOptions): boolean {
  if (opts.crossing === 'protect') return seenNewer < opts.protectTokens;
  return seenNewer + tokens <= opts.protectTokens;
}

function beatsMinimum(prunable: number, opts: ResolvedPruneOptions): boolean {
  return opts.minimumComparison === '>' ? prunable > opts.minimumTokens : prunable >= opts.minimumTokens;
}

function describe(
  prune: boolean,
  parts: number,
  prunable: number,
  kept: number,
  stop: Stop,
  opts: ResolvedPruneOptions,
): string {
  const where = stop
    ? `; scan stopped at ${stop.at === 'pivot' ? 'pivot' : 'marked part in'} ${stop.entryId}`
    : '';
  if (parts === 0) return `nothing prunable (${kept} tokens protected)${where}`;
  const vs = `${prunable} ${opts.minimumComparison} ${opts.minimumTokens}`;
  if (!prune) return `below minimum: ${parts} parts, not ${vs} (${kept} tokens protected)${where}`;
  return `pruning ${parts} parts: ${vs} (${kept} tokens protected)${where}`;
}
