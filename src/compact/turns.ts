import { type Entry, latestPivot, type MessageEntry } from '../model/entry.js';
import { isSummaryMessage } from '../model/message.js';

/** A user message whose only parts are compaction markers: a queued request, not conversation. */
export function isMarkerOnly(entry: MessageEntry): boolean {
  const { message } = entry;
  return (
    message.role === 'user' && message.parts.length > 0 && message.parts.every((p) => p.type === 'compaction')
  );
}

/** A turn starts at a user message the user wrote: not a marker, not a summary, not synthetic (continue message). */
export function isTurnStart(entry: MessageEntry): boolean {
  const { message } = entry;
  return (
    message.role === 'user' &&
    !isMarkerOnly(entry) &&
    !isSummaryMessage(message) &&
    message.metadata?.synthetic !== true
  );
}

/** The newest compaction entry, i.e. the pivot the current view is built on. */
export { latestPivot };

/**
 * The entries the model currently sees, from the latest pivot's first kept entry (or the pivot
 * itself when it kept nothing) to the end. Already-windowed input passes through unchanged.
 */
export function activeWindow(entries: readonly Entry[]): Entry[] {
  const pivot = latestPivot(entries);
  if (pivot === null) return [...entries];
  const startId = pivot.pivot.firstKeptId ?? pivot.id;
  const start = entries.findIndex((e) => e.id === startId);
  return start < 0 ? [...entries] : entries.slice(start);
}

/** Index ranges [start, end) of turns; a leading run without a user message is a turn of its own. */
export function turnRanges(messages: readonly MessageEntry[]): Array<{ start: number; end: number }> {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (i === 0 || isTurnStart(m)) starts.push(i);
  });
  return starts.map((start, k) => ({ start, end: starts[k + 1] ?? messages.length }));
}

export function sumTokens(entries: readonly Entry[], from = 0, to = entries.length): number {
  let total = 0;
  for (let i = from; i < to; i++) total += entries[i]!.tokens;
  return total;
}
