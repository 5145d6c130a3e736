import type { Entry, MessageEntry } from '../../src/model/entry.js';
import type { Part } from '../../src/model/parts.js';
import type { ResolvedPruneOptions } from '../../src/prune/index.js';

/**
 * A second, deliberately different (multi-pass) reading of the pruning rules, to check planPrune
 * against: cut at the boundary, drop protected turns, list eligible parts newest first, then split
 * the list with prefix sums.
 */

export function isSummaryEntry(e: Entry): boolean {
  return e.kind === 'compaction' || e.message.metadata?.summary === true;
}

function isTurnStart(e: Entry, opts: ResolvedPruneOptions): boolean {
  if (e.kind !== 'message' || e.message.role !== 'user' || isSummaryEntry(e)) return false;
  if (opts.turnCounting === 'any-user') return true;
  const m = e.message;
  const marker = m.parts.some((p) => p.type === 'compaction');
  const synthetic = m.parts.length > 0 && m.parts.every((p) => p.type === 'text' && p.synthetic === true);
  return !marker && !synthetic && m.metadata?.synthetic !== true;
}

/** First index the scan may look at (after the latest pivot when it stops there). */
export function scanStart(entries: readonly Entry[], opts: ResolvedPruneOptions): number {
  if (opts.onSummary === 'skip') return 0;
  let last = -1;
  entries.forEach((e, i) => {
    if (isSummaryEntry(e)) last = i;
  });
  return last + 1;
}

/** First index inside the protected turns (entries.length when there are none). */
export function protectedFrom(entries: readonly Entry[], opts: ResolvedPruneOptions): number {
  if (opts.protectTurns === 0) return entries.length;
  const starts: number[] = [];
  entries.forEach((e, i) => {
    if (i >= scanStart(entries, opts) && isTurnStart(e, opts)) starts.push(i);
  });
  return starts.length < opts.protectTurns ? -1 : starts[starts.length - opts.protectTurns]!;
}

export function eligible(part: Part, entry: MessageEntry, opts: ResolvedPruneOptions): boolean {
  return (
    part.type === 'tool' &&
    part.compactedAt === undefined &&
    (part.state === 'completed' || part.state === 'error') &&
    opts.prunableStates.includes(part.state) &&
    !opts.protectedTools.includes(part.name) &&
    !opts.isProtected?.(part, entry)
  );
}

export interface Slot {
  index: number;
  entry: MessageEntry;
  partIndex: number;
  part: Part;
  tokens: number;
}

/** Every part the scan reaches, newest first, cut at the first mark when marks stop it. */
export function reachedParts(entries: readonly Entry[], opts: ResolvedPruneOptions): Slot[] {
  const slots: Slot[] = [];
  for (let index = entries.length - 1; index >= scanStart(entries, opts); index--) {
    const entry = entries[index]!;
    if (entry.kind !== 'message' || isSummaryEntry(entry)) continue;
    entry.message.parts.forEach((part, partIndex) => {
      slots.push({ index, entry, partIndex, part, tokens: entry.partTokens[partIndex] ?? 0 });
    });
  }
  slots.sort((a, b) => b.index - a.index || b.partIndex - a.partIndex);
  if (opts.onMarked === 'skip') return slots;
  const firstMark = slots.findIndex((s) => s.part.type === 'tool' && s.part.compactedAt !== undefined);
  return firstMark === -1 ? slots : slots.slice(0, firstMark);
}

export function referencePlan(entries: readonly Entry[], opts: ResolvedPruneOptions) {
  const from = protectedFrom(entries, opts);
  const counted = reachedParts(entries, opts).filter(
    (s) => s.index < from && eligible(s.part, s.entry, opts),
  );
  const prefix = counted.map((_, k) => counted.slice(0, k).reduce((sum, s) => sum + s.tokens, 0));
  const kept = counted.filter((s, k) =>
    opts.crossing === 'protect'
      ? prefix[k]! < opts.protectTokens
      : prefix[k]! + s.tokens <= opts.protectTokens,
  );
  const candidates = counted.filter((s) => !kept.includes(s));
  const prunable = candidates.reduce((sum, s) => sum + s.tokens, 0);
  const beats =
    opts.minimumComparison === '>' ? prunable > opts.minimumTokens : prunable >= opts.minimumTokens;
  const prune = candidates.length > 0 && beats;
  return {
    marks: prune ? candidates.map((s) => `${s.entry.id}#${s.partIndex}`).reverse() : [],
    protectedTokens: kept.reduce((sum, s) => sum + s.tokens, 0),
    prunableTokens: prunable,
    prune,
  };
}
