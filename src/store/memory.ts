import type { Entry, MessageEntry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import { copyValue } from './copy.js';
import {
  DuplicateEntryError,
  DuplicateSessionError,
  StoreClosedError,
  StoreWriteError,
  UnknownSessionError,
} from './errors.js';
import type { EventLedger } from './events.js';
import { memoryLedger } from './events-memory.js';
import {
  applyCommit,
  checkAppendBatch,
  checkNewSessions,
  checkPartsUpdates,
  checkSessionId,
  compareSessions,
  lowerBoundBySeq,
  summarizeSession,
} from './rules.js';
import { entrySearchText, topHits } from './search.js';
import { parseSearchQuery, searchLimit } from './search-query.js';
import { rankDocs } from './search-rank.js';
import {
  type Commit,
  type NewSession,
  type SessionSummary,
  type Store,
  VersionConflictError,
} from './store.js';

/** One session's stored state: entries sorted by seq, plus an id index into the same objects. */
interface SessionSlot {
  record: SessionRecord;
  entries: Entry[];
  byId: Map<string, Entry>;
}

/**
 * A store in process memory, for tests and short-lived agents, with an events ledger beside its
 * sessions. Values are copied on the way in
 * and out (entries by copyValue: their strings shared, everything else new), so a caller mutating
 * what it passed or got back cannot change stored state. Each
 * method checks everything before it changes anything, which makes every write all-or-nothing.
 */
export function memoryStore(): Store & EventLedger {
  const sessions = new Map<string, SessionSlot>();
  let closed = false;

  function open(): void {
    if (closed) throw new StoreClosedError('memory');
  }

  /** The session a commit targets, after the compare-and-swap on its version. */
  function slotForCommit(commit: Commit): SessionSlot {
    const slot = sessions.get(commit.sessionId);
    if (slot === undefined) throw new UnknownSessionError(commit.sessionId);
    if (slot.record.version !== commit.expectedVersion) {
      throw new VersionConflictError(commit.sessionId, commit.expectedVersion, slot.record.version);
    }
    return slot;
  }

  function commitRecord(slot: SessionSlot, commit: Commit): SessionRecord {
    slot.record = applyCommit(slot.record, structuredClone(commit), Date.now());
    return structuredClone(slot.record);
  }

  function appendNow(entries: readonly Entry[], commit: Commit): SessionRecord {
    checkAppendBatch(entries, commit.sessionId);
    const slot = slotForCommit(commit);
    for (const entry of entries) {
      if (slot.byId.has(entry.id)) throw new DuplicateEntryError(commit.sessionId, 'id', entry.id);
      if (hasSeq(slot.entries, entry.seq)) throw new DuplicateEntryError(commit.sessionId, 'seq', entry.seq);
    }
    const added = entries.map(copyValue);
    const lastSeq = slot.entries.at(-1)?.seq ?? -1;
    for (const entry of added) slot.entries.push(entry); // no spread: batches can exceed the argument limit
    // Appends normally come in order after the last entry; anything else is re-sorted once here
    // so that loadFrom can keep binary-searching.
    if (!isAscendingFrom(added, lastSeq)) slot.entries.sort((a, b) => a.seq - b.seq);
    for (const entry of added) slot.byId.set(entry.id, entry);
    return commitRecord(slot, commit);
  }

  /**
   * Nothing else runs between these synchronous steps: removing the sessions made so far when one
   * fails makes the whole batch all-or-nothing.
   */
  function createAll(batch: readonly NewSession[]): void {
    const made: string[] = [];
    try {
      for (const { record, initial } of batch) {
        if (sessions.has(record.id)) throw new DuplicateSessionError(record.id);
        sessions.set(record.id, { record: structuredClone(record), entries: [], byId: new Map() });
        made.push(record.id);
        if (initial) appendNow(initial.entries, initial.commit);
      }
    } catch (error) {
      for (const id of made) sessions.delete(id);
      throw error;
    }
  }

  return {
    kind: 'memory',
    ...memoryLedger(open),

    async createSession(record, initial) {
      open();
      checkNewSessions([{ record }]);
      createAll([{ record, initial }]);
    },

    async createSessions(batch) {
      open();
      checkNewSessions(batch);
      createAll(batch);
    },

    async getSession(id) {
      open();
      checkSessionId(id);
      const slot = sessions.get(id);
      return slot === undefined ? undefined : structuredClone(slot.record);
    },

    async listSessions(): Promise<SessionSummary[]> {
      open();
      return [...sessions.values()]
        .map((s) => structuredClone(summarizeSession(s.record)))
        .sort(compareSessions);
    },

    async append(entries, commit) {
      open();
      return appendNow(entries, commit);
    },

    async updateParts(updates, commit) {
      open();
      checkPartsUpdates(updates, commit.sessionId);
      const slot = slotForCommit(commit);
      const targets = updates.map((u) => messageEntryFor(slot, u.entryId, commit.sessionId));
      updates.forEach((update, i) => {
        const target = targets[i]!;
        const copy = copyValue(update);
        target.message = { ...target.message, parts: copy.parts } as MessageEntry['message'];
        target.partTokens = copy.partTokens;
        target.tokens = copy.tokens;
      });
      return commitRecord(slot, commit);
    },

    async loadFrom(sessionId, fromSeq, toSeq) {
      open();
      const slot = sessions.get(sessionId);
      if (slot === undefined) return [];
      const end = toSeq === undefined ? slot.entries.length : lowerBoundBySeq(slot.entries, toSeq);
      return slot.entries.slice(lowerBoundBySeq(slot.entries, fromSeq), end).map(copyValue);
    },

    async getEntry(sessionId, entryId) {
      open();
      const entry = sessions.get(sessionId)?.byId.get(entryId);
      return entry === undefined ? undefined : copyValue(entry);
    },

    async search(text, opts = {}) {
      open();
      const query = parseSearchQuery(text);
      const limit = searchLimit(opts.limit);
      // A scan of every entry: this store is for tests and short-lived agents.
      const docs = [...sessions.values()].flatMap((s) =>
        s.entries.map((e) => ({ key: e, text: entrySearchText(e) })),
      );
      const inScope = (e: Entry) => opts.sessionId === undefined || e.sessionId === opts.sessionId;
      return topHits(rankDocs(docs, query, inScope), query, limit);
    },

    async deleteSession(id) {
      open();
      sessions.delete(id);
    },

    async close() {
      closed = true;
      sessions.clear();
    },
  };
}

function hasSeq(entries: readonly Entry[], seq: number): boolean {
  return entries[lowerBoundBySeq(entries, seq)]?.seq === seq;
}

function isAscendingFrom(entries: readonly Entry[], after: number): boolean {
  let previous = after;
  for (const entry of entries) {
    if (entry.seq <= previous) return false;
    previous = entry.seq;
  }
  return true;
}

function messageEntryFor(slot: SessionSlot, entryId: string, sessionId: string): MessageEntry {
  const entry = slot.byId.get(entryId);
  if (entry === undefined) throw new StoreWriteError(`session ${sessionId}: no entry ${entryId} to update`);
  if (entry.kind !== 'message') {
    throw new StoreWriteError(
      `session ${sessionId}: entry ${entryId} is a ${entry.kind} entry and has no parts`,
    );
  }
  return entry;
}
