import type { Entry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import { checkSessionId } from '../model/text.js';
import { DuplicateEntryError, StoreWriteError } from './errors.js';
import type { Commit, NewSession, PartsUpdate, SessionSummary } from './store.js';

/**
 * Checks that every store makes before writing a batch, so that all of them reject the same
 * batches with the same errors: entries belong to the committed session and do not repeat an id
 * or a seq among themselves. Clashes with stored entries are each store's own business.
 */
export function checkAppendBatch(entries: readonly Entry[], sessionId: string): void {
  const ids = new Set<string>();
  const seqs = new Set<number>();
  for (const entry of entries) {
    if (entry.sessionId !== sessionId) {
      throw new StoreWriteError(
        `entry ${entry.id} belongs to session ${entry.sessionId}, not to the committed session ${sessionId}`,
      );
    }
    if (ids.has(entry.id)) throw new DuplicateEntryError(sessionId, 'id', entry.id);
    if (seqs.has(entry.seq)) throw new DuplicateEntryError(sessionId, 'seq', entry.seq);
    ids.add(entry.id);
    seqs.add(entry.seq);
  }
}

/** A parts update must keep one token figure per part, or every later budget sum is wrong. */
export function checkPartsUpdates(updates: readonly PartsUpdate[], sessionId: string): void {
  for (const update of updates) {
    if (update.parts.length !== update.partTokens.length) {
      throw new StoreWriteError(
        `session ${sessionId}, entry ${update.entryId}: ${update.parts.length} parts but ` +
          `${update.partTokens.length} part token figures`,
      );
    }
  }
}

/** Index of the first entry with seq >= fromSeq in a seq-sorted array (binary search). */
export function lowerBoundBySeq(entries: readonly { seq: number }[], fromSeq: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.seq < fromSeq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The session record a successful commit leaves: one version more, the commit's figures. */
export function applyCommit(record: SessionRecord, commit: Commit, now: number): SessionRecord {
  return {
    ...record,
    updatedAt: now,
    headId: commit.headId,
    version: commit.expectedVersion + 1,
    nextSeq: commit.nextSeq,
    metadata: commit.metadata ?? record.metadata,
    state: commit.state,
  };
}

/** The listing row of a session, from the running figures its state keeps. */
export function summarizeSession(record: SessionRecord): SessionSummary {
  return {
    id: record.id,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    entryCount: record.state.entryCount,
    totalTokens: record.state.totalTokens,
    activeTokens: record.state.activeTokens,
    metadata: record.metadata,
  };
}

/** Listings come oldest first, ties broken by id, in every store. */
export function compareSessions(a: SessionSummary, b: SessionSummary): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The ids of sessions to create: the same rule on every store (model/text.ts), before any write. */
export function checkNewSessions(batch: readonly NewSession[]): void {
  batch.forEach(({ record }, i) => {
    checkSessionId(record.id, batch.length > 1 ? `[${i}].id` : 'id');
  });
}

export { checkSessionId };
