import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Entry, MessageEntry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import {
  DuplicateEntryError,
  DuplicateSessionError,
  StoreClosedError,
  StoreWriteError,
  UnknownSessionError,
} from './errors.js';
import { checkAppendBatch, checkPartsUpdates, summarizeSession } from './rules.js';
import {
  type EntryRow,
  entryFromRow,
  entryValues,
  parseColumn,
  type SessionRow,
  sessionFromRow,
} from './sqlite-rows.js';
import { checkSchemaVersion, migrate } from './sqlite-schema.js';
import { prepareStatements, type Statements } from './sqlite-statements.js';
import { type Commit, type PartsUpdate, type Store, VersionConflictError } from './store.js';

export interface SqliteStoreOptions {
  /** Database file; its folder is created. Default `.condense/condense.db` under the working directory. */
  path?: string;
  /** Open an existing, already migrated file for reading only. */
  readonly?: boolean;
  /** How long a writer waits for another connection's lock before failing (ms). Default 5000. */
  busyTimeoutMs?: number;
}

export const DEFAULT_SQLITE_PATH = '.condense/condense.db';

/**
 * The default store for one process (DESIGN "Scale"): a SQLite file in WAL mode, so readers never
 * block the writer. Every write is one transaction guarded by a compare-and-swap on the session
 * version, and loads read a range of the (session_id, seq) key, never the whole history.
 */
export function sqliteStore(opts: SqliteStoreOptions = {}): Store {
  const path = opts.path ?? DEFAULT_SQLITE_PATH;
  const readonly = opts.readonly ?? false;
  if (!readonly && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly, fileMustExist: readonly });
  try {
    db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
    if (readonly) checkSchemaVersion(db);
    else {
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a commit survives a process crash; only an OS crash can lose the last ones.
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const st = prepareStatements(db);

  function open(): Statements {
    if (!db.open) throw new StoreClosedError('sqlite');
    return st;
  }

  /** Runs the compare-and-swap on the session row; must be called inside a transaction. */
  function commitSession(commit: Commit): SessionRecord {
    const row = st.commit.get({
      id: commit.sessionId,
      expected: commit.expectedVersion,
      updated_at: Date.now(),
      head_id: commit.headId,
      next_seq: commit.nextSeq,
      state: JSON.stringify(commit.state),
      metadata: commit.metadata === undefined ? null : JSON.stringify(commit.metadata),
    }) as SessionRow | undefined;
    if (row !== undefined) return sessionFromRow(row);
    const found = st.versionOf.get(commit.sessionId) as { version: number } | undefined;
    if (found === undefined) throw new UnknownSessionError(commit.sessionId);
    throw new VersionConflictError(commit.sessionId, commit.expectedVersion, found.version);
  }

  const appendTx = db.transaction((entries: readonly Entry[], commit: Commit): SessionRecord => {
    const record = commitSession(commit);
    for (const entry of entries) {
      try {
        st.insertEntry.run(entryValues(entry));
      } catch (error) {
        throw duplicateOr(error, entry, commit.sessionId);
      }
    }
    return record;
  });

  const updatePartsTx = db.transaction((updates: readonly PartsUpdate[], commit: Commit): SessionRecord => {
    const record = commitSession(commit);
    for (const update of updates) rewriteParts(st, commit.sessionId, update);
    return record;
  });

  const createTx = db.transaction((r: SessionRecord, initial?: { entries: Entry[]; commit: Commit }) => {
    st.insertSession.run({
      id: r.id,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      head_id: r.headId,
      version: r.version,
      next_seq: r.nextSeq,
      metadata: JSON.stringify(r.metadata),
      state: JSON.stringify(r.state),
    });
    if (initial) appendTx(initial.entries, initial.commit);
  });

  const deleteTx = db.transaction((id: string) => {
    st.deleteEntries.run(id);
    st.deleteSession.run(id);
  });

  return {
    kind: 'sqlite',

    async createSession(r, initial) {
      open();
      if (initial) checkAppendBatch(initial.entries, initial.commit.sessionId);
      try {
        createTx(r, initial);
      } catch (error) {
        if (constraintCode(error) === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new DuplicateSessionError(r.id);
        throw error;
      }
    },

    async getSession(id) {
      const row = open().getSession.get(id) as SessionRow | undefined;
      return row === undefined ? undefined : sessionFromRow(row);
    },

    async listSessions() {
      return (open().listSessions.all() as SessionRow[]).map((row) => summarizeSession(sessionFromRow(row)));
    },

    async append(entries, commit) {
      open();
      checkAppendBatch(entries, commit.sessionId);
      return appendTx(entries, commit);
    },

    async updateParts(updates, commit) {
      open();
      checkPartsUpdates(updates, commit.sessionId);
      return updatePartsTx(updates, commit);
    },

    async loadFrom(sessionId, fromSeq) {
      return (open().loadFrom.all(sessionId, fromSeq) as EntryRow[]).map(entryFromRow);
    },

    async getEntry(sessionId, entryId) {
      const row = open().getEntry.get(sessionId, entryId) as EntryRow | undefined;
      return row === undefined ? undefined : entryFromRow(row);
    },

    async deleteSession(id) {
      open();
      deleteTx(id);
    },

    async close() {
      db.close();
    },
  };
}

function constraintCode(error: unknown): string | undefined {
  return error instanceof Database.SqliteError ? error.code : undefined;
}

/** Replaces one message entry's parts; a read-modify-write of the body keeps its other fields and key order. */
function rewriteParts(st: Statements, sessionId: string, update: PartsUpdate): void {
  const row = st.entryBody.get(sessionId, update.entryId) as
    | { kind: string; seq: number; body: string }
    | undefined;
  if (row === undefined)
    throw new StoreWriteError(`session ${sessionId}: no entry ${update.entryId} to update`);
  if (row.kind !== 'message') {
    throw new StoreWriteError(
      `session ${sessionId}: entry ${update.entryId} is a ${row.kind} entry and has no parts`,
    );
  }
  const message = parseColumn<MessageEntry['message']>(row.body, 'entries', sessionId, row.seq, 'body');
  const body = JSON.stringify({ ...message, parts: update.parts });
  st.updateEntryParts.run(body, JSON.stringify(update.partTokens), update.tokens, sessionId, update.entryId);
}

/** A key clash becomes the same DuplicateEntryError the other stores raise. */
function duplicateOr(error: unknown, entry: Entry, sessionId: string): unknown {
  const code = constraintCode(error);
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new DuplicateEntryError(sessionId, 'seq', entry.seq);
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return new DuplicateEntryError(sessionId, 'id', entry.id);
  return error;
}
