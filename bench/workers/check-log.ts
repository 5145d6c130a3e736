/**
 * What must hold of one shared session's log after any number of writers: dense seqs, one pivot
 * chain (each compaction follows the previous one: never two over the same window), nothing
 * appended while a compaction ran lost between its summarized span and its kept part, and running
 * figures equal to those rebuilt from the entries. Pure: entries and record in, findings out.
 */
import type { CompactionEntry, Entry } from '../../src/model/entry.js';
import type { SessionRecord } from '../../src/model/session.js';
import { stateFromEntries } from '../../src/session/state.js';

export interface LogFindings {
  problems: string[];
  /** Committed pivots by the window they compacted (the pivot they follow; '' for none). */
  pivotsByWindow: Map<string, number>;
  pivots: number;
}

export const windowKey = (previousPivotId: string | null) => previousPivotId ?? '';

/** The figures a writer computes from the record it read: wrong if it computed from a stale one. */
const FIGURES = [
  'activeFromSeq',
  'pivotId',
  'activeTokens',
  'unprunedToolTokens',
  'totalTokens',
  'entryCount',
] as const;

export function checkLog(entries: readonly Entry[], record: SessionRecord): LogFindings {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${record.id}: ${text}`);
  entries.forEach((e, i) => {
    if (e.seq !== i) say(`entry ${i} has seq ${e.seq}`);
  });
  if (record.nextSeq !== entries.length) say(`nextSeq ${record.nextSeq} with ${entries.length} entries`);
  const pivots = entries.filter((e): e is CompactionEntry => e.kind === 'compaction');
  const pivotsByWindow = new Map<string, number>();
  let previous: string | null = null;
  for (const entry of pivots) {
    const { pivot } = entry;
    const key = windowKey(pivot.previousPivotId);
    pivotsByWindow.set(key, (pivotsByWindow.get(key) ?? 0) + 1);
    if (pivot.previousPivotId !== previous)
      say(`pivot at seq ${entry.seq} follows ${pivot.previousPivotId}, not the latest pivot ${previous}`);
    previous = entry.id;
    const hidden = lostBetween(entries, entry);
    if (hidden.length > 0)
      say(`pivot at seq ${entry.seq} neither summarizes nor keeps seqs ${hidden.join(', ')}`);
  }
  const rebuilt = stateFromEntries([...entries], record.state);
  for (const key of FIGURES)
    if (rebuilt[key] !== record.state[key])
      say(`state.${key} is ${record.state[key]}, the entries say ${rebuilt[key]}`);
  return { problems, pivotsByWindow, pivots: pivots.length };
}

/** Messages after the pivot's summarized span but before its first kept entry: in no view. */
function lostBetween(entries: readonly Entry[], entry: CompactionEntry): number[] {
  const seqOf = (id: string | null) => (id === null ? undefined : entries.find((e) => e.id === id)?.seq);
  const through = seqOf(entry.pivot.summarizedThroughId) ?? -1;
  const firstKept = seqOf(entry.pivot.firstKeptId) ?? entry.seq + 1;
  return entries
    .filter((e) => e.kind === 'message' && e.seq > through && e.seq < Math.min(firstKept, entry.seq))
    .filter((e) => e.kind === 'message' && !e.message.parts.every((p) => p.type === 'compaction'))
    .map((e) => e.seq);
}
