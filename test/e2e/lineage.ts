/**
 * The lineage of a compacted session, read from its whole history (session.history()) alone.
 *
 * Definitions used by the e2e tests:
 * - A *conversation entry* is a message entry that is not a marker.
 * - A *marker* is a user message made only of compaction parts: a queued request to
 *   compact, not conversation. It is neither summarized nor kept: the planner skips it and the
 *   view never shows it, so it belongs to no span.
 * - Pivot k *starts* where the view it compacted started: the previous pivot's first kept entry
 *   (the pivot itself when it kept nothing), or the beginning of the log for the first pivot.
 * - Its *summarized span* is the conversation entries from its start through summarizedThroughId;
 *   its *kept span* those from firstKeptId up to the pivot. Its *window* is every conversation
 *   entry from its start up to the pivot.
 *
 * Invariants: each window is exactly summarized ++ kept (in order, no gap, no duplicate), each
 * pivot names the previous one, and the summarized spans of the chain followed by the current
 * tail (conversation entries from the latest pivot's first kept entry on) are every conversation
 * entry of the log exactly once, in order. A kept span is not a second copy: it is the start of
 * the next window, summarized again (recursively) by the next pivot or still in the tail.
 */
import type { CompactionEntry, Entry, MessageEntry } from '../../src/model/entry.js';

export function isMarker(entry: Entry): boolean {
  return (
    entry.kind === 'message' &&
    entry.message.role === 'user' &&
    entry.message.parts.length > 0 &&
    entry.message.parts.every((p) => p.type === 'compaction')
  );
}

export function isConversation(entry: Entry): entry is MessageEntry {
  return entry.kind === 'message' && !isMarker(entry);
}

export interface Lineage {
  pivots: CompactionEntry[];
  summarized: string[][];
  kept: string[][];
  tail: string[];
  /** Every conversation entry of the log, in order. */
  all: string[];
  markers: number;
  /** Every broken invariant, described; empty when the lineage is sound. */
  problems: string[];
}

export function walkLineage(history: readonly Entry[]): Lineage {
  const log = [...history].sort((a, b) => a.seq - b.seq);
  const seqOf = new Map(log.map((e) => [e.id, e.seq]));
  const byId = new Map(log.map((e) => [e.id, e]));
  const conversation = log.filter(isConversation);
  const between = (from: number, to: number) =>
    conversation.filter((e) => e.seq >= from && e.seq < to).map((e) => e.id);
  const pivots = log.filter((e): e is CompactionEntry => e.kind === 'compaction');
  const problems: string[] = [];
  const summarized: string[][] = [];
  const kept: string[][] = [];
  /** Where the view after a pivot starts. */
  const viewStart = (p: CompactionEntry) =>
    p.pivot.firstKeptId === null ? p.seq + 1 : (seqOf.get(p.pivot.firstKeptId) ?? Number.NaN);

  let start = Number.NEGATIVE_INFINITY;
  pivots.forEach((p, k) => {
    const at = `pivot ${k + 1} (${p.id})`;
    const expectedPrevious = k === 0 ? null : pivots[k - 1]!.id;
    if (p.pivot.previousPivotId !== expectedPrevious)
      problems.push(`${at}: previousPivotId ${p.pivot.previousPivotId}, expected ${expectedPrevious}`);
    const through = byId.get(p.pivot.summarizedThroughId);
    if (!through || !isConversation(through)) problems.push(`${at}: summarizedThroughId is not a message`);
    const first = p.pivot.firstKeptId === null ? undefined : byId.get(p.pivot.firstKeptId);
    if (p.pivot.firstKeptId !== null && (!first || !isConversation(first)))
      problems.push(`${at}: firstKeptId is not a message`);
    const from = viewStart(p);
    const throughSeq = through?.seq ?? Number.NaN;
    const s = between(start, throughSeq + 1);
    const kk = between(from, p.seq);
    const window = between(start, p.seq);
    if (s.length === 0) problems.push(`${at}: summarized nothing`);
    if (JSON.stringify([...s, ...kk]) !== JSON.stringify(window)) {
      problems.push(
        `${at}: window of ${window.length} ≠ summarized ${s.length} ++ kept ${kk.length} (through seq ${throughSeq}, first kept seq ${from})`,
      );
    }
    summarized.push(s);
    kept.push(kk);
    start = from;
  });
  const tail = between(start, Number.POSITIVE_INFINITY);
  const all = conversation.map((e) => e.id);
  const covered = [...summarized.flat(), ...tail];
  if (JSON.stringify(covered) !== JSON.stringify(all)) {
    const dup = covered.length - new Set(covered).size;
    const missing = all.filter((id) => !covered.includes(id)).length;
    problems.push(`chain covers ${covered.length} of ${all.length} (duplicates ${dup}, missing ${missing})`);
  }
  return { pivots, summarized, kept, tail, all, markers: log.filter(isMarker).length, problems };
}
