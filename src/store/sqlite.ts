import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Entry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import {
  DuplicateEntryError,
  DuplicateSessionError,
  StoreClosedError,
  UnknownSessionError,
} from './errors.js';
import type { EventLedger } from './events.js';
import {
  checkAppendBatch,
  checkNewSessions,
  checkPartsUpdates,
  checkSessionId,
  summarizeSession,
} from './rules.js';
import { idleCheckpoint } from './sqlite-checkpoint.js';
import { sqliteLedger } from './sqlite-ledger.js';
import { preparePartsStatements, rewriteParts } from './sqlite-parts.js';
import {
  type EntryCells,
  entryFromCells,
  entryValues,
  type SessionRow,
  sessionFromRow,
} from './sqlite-rows.js';
import { checkSchemaVersion, migrate } from './sqlite-schema.js';
import { entryIndex } from './sqlite-search.js';
import { prepareStatements, type Statements } from './sqlite-statements.js';
import { type Commit, type NewSession, type PartsUpdate, type Store, VersionConflictError } from './store.js';

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
 * The default store for one process: a SQLite file in WAL mode, so readers never
 * block the writer. Every write is one transaction guarded by a compare-and-swap on the session
 * version, and loads read a range of the (session_id, seq) key, never the whole history.
 */
export function sqliteStore(opts: SqliteStoreOptions = {}): Store & EventLedger {
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
  const checkpoint = readonly ? null : idleCheckpoint(db);

  function open(): Statements {
    if (!db.open) throw new StoreClosedError('sqlite');
    return st;
  }
  const index = entryIndex(db, open, readonly);

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

  const parts = preparePartsStatements(db);
  const updatePartsTx = db.transaction((updates: readonly PartsUpdate[], commit: Commit): SessionRecord => {
    const record = commitSession(commit);
    rewriteParts(parts, index, commit.sessionId, updates);
    return record;
  });

  const createTx = db.transaction((r: SessionRecord, initial?: NewSession['initial']) => {
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

  /** One session in its own transaction, or a savepoint of the caller's; a clash names the id. */
  function createOne(record: SessionRecord, initial?: NewSession['initial']): void {
    try {
      createTx(record, initial);
    } catch (error) {
      if (constraintCode(error) === 'SQLITE_CONSTRAINT_PRIMARYKEY')
        throw new DuplicateSessionError(record.id);
      throw error;
    }
  }

  const createManyTx = db.transaction((batch: readonly NewSession[]) => {
    for (const { record, initial } of batch) createOne(record, initial);
  });

  const deleteTx = db.transaction((id: string) => {
    index.deleting(id, () => {
      st.deleteEntries.run(id);
      st.deleteSession.run(id);
    });
  });

  return {
    kind: 'sqlite',
    ...sqliteLedger(db, open),

    async createSession(record, initial) {
      open();
      checkNewSessions([{ record }]);
      if (initial) checkAppendBatch(initial.entries, initial.commit.sessionId);
      createOne(record, initial);
    },

    async createSessions(batch) {
      open();
      checkNewSessions(batch);
      for (const { initial } of batch)
        if (initial) checkAppendBatch(initial.entries, initial.commit.sessionId);
      createManyTx(batch);
    },

    async getSession(id) {
      checkSessionId(id);
      const row = open().getSession.get(id) as SessionRow | undefined;
      return row === undefined ? undefined : sessionFromRow(row);
    },

    async listSessions() {
      return (open().listSessions.all() as SessionRow[]).map((row) => summarizeSession(sessionFromRow(row)));
    },

    async append(entries, commit) {
      open();
      checkAppendBatch(entries, commit.sessionId);
      const record = appendTx(entries, commit);
      checkpoint?.afterWrite();
      return record;
    },

    async updateParts(updates, commit) {
      open();
      checkPartsUpdates(updates, commit.sessionId);
      const record = updatePartsTx(updates, commit);
      checkpoint?.afterWrite();
      return record;
    },

    async loadFrom(sessionId, fromSeq, toSeq) {
      const rows =
        toSeq === undefined
          ? open().loadFrom.all(sessionId, fromSeq)
          : open().loadRange.all(sessionId, fromSeq, toSeq);
      return (rows as EntryCells[]).map((cells) => entryFromCells(sessionId, cells));
    },

    async getEntry(sessionId, entryId) {
      const cells = open().getEntry.get(sessionId, entryId) as EntryCells | undefined;
      return cells === undefined ? undefined : entryFromCells(sessionId, cells);
    },

    search(text, opts = {}) {
      return index.search(text, opts);
    },

    async deleteSession(id) {
      open();
      deleteTx(id);
    },

    async close() {
      checkpoint?.close();
      db.close();
    },
  };
}

function constraintCode(error: unknown): string | undefined {
  return error instanceof Database.SqliteError ? error.code : undefined;
}

/** A key clash becomes the same DuplicateEntryError the other stores raise. */
function duplicateOr(error: unknown, entry: Entry, sessionId: string): unknown {
  const code = constraintCode(error);
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new DuplicateEntryError(sessionId, 'seq', entry.seq);
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return new DuplicateEntryError(sessionId, 'id', entry.id);
  return error;
}
