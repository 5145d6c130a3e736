import type { Entry, PartsUpdate } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { SessionRecord, SessionState } from '../model/session.js';
import type { EntryHit, SearchOptions } from './search.js';

export type { PartsUpdate };

/** One listing row. */
export interface SessionSummary {
  id: string;
  createdAt: number;
  updatedAt: number;
  entryCount: number;
  totalTokens: number;
  activeTokens: number;
  metadata: JsonObject;
}

/** The session's state after a write, and what the writer believed the version was. */
export interface Commit {
  sessionId: string;
  /** The version the writer read; the write fails with VersionConflictError if it changed. */
  expectedVersion: number;
  headId: string | null;
  nextSeq: number;
  state: SessionState;
  metadata?: JsonObject;
}

export class VersionConflictError extends Error {
  override name = 'VersionConflictError';
  constructor(
    readonly sessionId: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`session ${sessionId} changed under us: expected version ${expected}, found ${actual}`);
  }
}

/** A session to create with its first entries (when it has any). */
export interface NewSession {
  record: SessionRecord;
  initial?: { entries: Entry[]; commit: Commit };
}

/**
 * Persistence. Every method that writes does so in one transaction: entries, part updates and the
 * session row land together or not at all, and `commit.expectedVersion` guards against lost writes.
 */
export interface Store {
  readonly kind: string;
  /**
   * Creates a session; with `initial`, its first entries land in the same transaction, so a
   * session made from others (a fork, an import) exists whole or not at all.
   */
  createSession(record: SessionRecord, initial?: NewSession['initial']): Promise<void>;
  /**
   * Creates several sessions in one transaction: all of them or none. A file of many runs (a
   * tau-bench result) is one import, so a crash or a kill midway leaves nothing to clean up and a
   * re-run starts from an untouched store. Throws DuplicateSessionError if any id exists.
   */
  createSessions(sessions: readonly NewSession[]): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /**
   * The session's version alone (undefined: no such session), for a store where reading the
   * whole row costs a round trip worth saving: a turn's check that nobody else wrote reads only
   * this, and the row when it changed. Optional; without it the check reads the row.
   */
  sessionVersion?(id: string): Promise<number | undefined>;
  listSessions(): Promise<SessionSummary[]>;
  /** Appends entries (already numbered by seq) and updates the session row. Returns the new record. */
  append(entries: Entry[], commit: Commit): Promise<SessionRecord>;
  /**
   * Replaces parts of existing message entries (pruning) and updates the session row. A batch of
   * any size is one transaction; stores write it in as few statements as they can.
   */
  updateParts(updates: PartsUpdate[], commit: Commit): Promise<SessionRecord>;
  /**
   * Entries with seq >= fromSeq (and < toSeq when given) in seq order, read through an index: what
   * a turn needs, or one page of a window streamed a range at a time.
   */
  loadFrom(sessionId: string, fromSeq: number, toSeq?: number): Promise<Entry[]>;
  /**
   * Entries with fromSeq <= seq < toSeq in seq order, a page at a time, each read once: a window
   * too large to hold, streamed. Optional, for a store whose every read costs more than its range
   * (a JSONL file is read whole); without it the range is read with loadFrom a page at a time.
   */
  loadPages?(sessionId: string, fromSeq: number, toSeq: number): AsyncIterable<Entry[]>;
  /** One entry by id. */
  getEntry(sessionId: string, entryId: string): Promise<Entry | undefined>;
  /**
   * Full-text search over every entry ever stored (tool outputs hidden by pruning and summarized
   * spans included), best match first. The query syntax is in search-query.ts; a query without a
   * word throws InputError. Not for the per-turn path: an indexed store may first index what was
   * appended since its last search.
   */
  search(query: string, opts?: SearchOptions): Promise<EntryHit[]>;
  /** Deletes a session and its entries. */
  deleteSession(id: string): Promise<void>;
  close(): Promise<void>;
}
