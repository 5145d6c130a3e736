import type { Entry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import type { Store } from '../store/store.js';
import type { WindowBound } from './log.js';
import { readTail } from './window-read.js';

/** The window held in memory and the seq it starts at (above activeFromSeq when only the tail is). */
export interface Held {
  active: Entry[];
  heldFromSeq: number;
}

/** The window of `record`, whole or (past the bound) its tail. */
export async function loadWindow(
  store: Store,
  record: SessionRecord,
  bound: WindowBound | null,
): Promise<Held> {
  const { activeFromSeq, activeTokens } = record.state;
  if (bound === null || activeTokens <= bound.maxTokens) {
    return { active: await store.loadFrom(record.id, activeFromSeq), heldFromSeq: activeFromSeq };
  }
  const range = { fromSeq: activeFromSeq, toSeq: record.nextSeq };
  const perEntry = activeTokens / Math.max(1, range.toSeq - range.fromSeq);
  const tail = await readTail(store, record.id, range, bound.tailTokens, perEntry);
  return { active: tail.entries, heldFromSeq: tail.fromSeq };
}

/**
 * How a held record differs from the stored one. 'appended': other writers only added entries
 * (and moved running figures), so reading the entries from our nextSeq on brings the window up to
 * date. 'rewritten': parts of stored entries were replaced, so the range held is read again.
 * 'moved': a pivot moved the window's start, so the window is loaded anew.
 */
export function changeSince(
  held: SessionRecord,
  stored: SessionRecord,
): 'none' | 'appended' | 'rewritten' | 'moved' {
  if (stored.version === held.version) return 'none';
  const a = held.state;
  const b = stored.state;
  if (a.pivotId !== b.pivotId || a.activeFromSeq !== b.activeFromSeq || stored.nextSeq < held.nextSeq)
    return 'moved';
  return (a.rewrites ?? 0) === (b.rewrites ?? 0) ? 'appended' : 'rewritten';
}

/** What a Log must hold to match the stored session: entries to add to its window, or a new window. */
export type CatchUp = { record: SessionRecord; added: Entry[] } | { record: SessionRecord; window: Held };

/**
 * Reads what changed since `held` was read: the session row (a primary-key read), then only the
 * appended entries, or the window again when it was rewritten. A write that lost a race thus
 * costs the few entries other writers added, not O(window).
 */
export async function catchUp(
  store: Store,
  held: { record: SessionRecord; heldFromSeq: number },
  bound: WindowBound | null,
): Promise<CatchUp> {
  const { id, nextSeq } = held.record;
  const record = await store.getSession(id);
  if (!record) throw new Error(`session ${id} no longer exists`);
  const change = changeSince(held.record, record);
  if (change === 'none') return { record, added: [] };
  // Up to the row's nextSeq only: entries of a later commit belong with a later row.
  if (change === 'appended') {
    const added = await store.loadFrom(id, nextSeq, record.nextSeq);
    if (added.length === record.nextSeq - nextSeq) return { record, added };
  }
  if (change === 'rewritten') {
    // The same range as before (not a new tail): a compaction planned on it still finds its entries.
    const active = await store.loadFrom(id, held.heldFromSeq, record.nextSeq);
    return { record, window: { active, heldFromSeq: held.heldFromSeq } };
  }
  return { record, window: await loadWindow(store, record, bound) };
}
