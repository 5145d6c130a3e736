import type { Pool, PoolClient } from 'pg';
import type { Entry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import {
  DuplicateEntryError,
  DuplicateSessionError,
  StoreClosedError,
  UnknownSessionError,
} from './errors.js';
import type { EventLedger } from './events.js';
import { landedChecks } from './postgres-landed.js';
import { postgresLedger } from './postgres-ledger.js';
import { rewriteParts } from './postgres-parts.js';
import {
  CommitUnknownError,
  connectionLost,
  guarded,
  inTransaction,
  listenOnPool,
  newPool,
  pgError,
  prepared,
  query,
} from './postgres-pool.js';
import { reconnecting } from './postgres-reconnect.js';
import {
  columnArrays,
  committedRecord,
  entryFromRow,
  entryValues,
  type PgEntryRow,
  type PgSessionRow,
  sessionFromRow,
  sessionValues,
} from './postgres-rows.js';
import { checkSchema, DEFAULT_PG_SCHEMA, migrateSchema } from './postgres-schema.js';
import { searchEntries } from './postgres-search.js';
import { pgSql } from './postgres-sql.js';
import {
  checkAppendBatch,
  checkNewSessions,
  checkPartsUpdates,
  checkSessionId,
  summarizeSession,
} from './rules.js';
import { type Commit, type NewSession, type Store, VersionConflictError } from './store.js';

export type PostgresStoreOptions = ({ connectionString: string } | { pool: Pool }) & {
  /** The schema holding condense's tables. Default `condense`; created by the first migration. */
  schema?: string;
  /**
   * Bring the schema up to date on first use (default true; safe with many processes, see
   * migrateSchema). false: only check the version, for a role without DDL rights whose schema is
   * migrated by `condense migrate --pg URL`.
   */
  migrate?: boolean;
  /**
   * Whether an append (a turn's write) returns only once the server has flushed it to disk.
   * Default false, the durability of the SQLite store (WAL, synchronous=NORMAL): a crash of the
   * database server may lose the appends of its last fraction of a second, never part of one,
   * and a turn does not wait on a disk flush (several milliseconds on ordinary disks). true: every
   * append waits for it. Other writes (creating, pruning, compacting) always wait.
   */
  synchronousCommit?: boolean;
};

/**
 * The store for many processes or machines. Every write is one transaction
 * guarded by a compare-and-swap on the session version; loads are range scans of the
 * (session_id, seq) key, so a turn reads what follows the latest pivot and never the whole
 * history. A pool given in the options stays the caller's: close() leaves it open.
 */
export function postgresStore(opts: PostgresStoreOptions): Store & EventLedger {
  const owned = 'connectionString' in opts;
  const pool = owned ? newPool(opts.connectionString) : opts.pool;
  // An application's pool too: a dropped idle connection must not end the process (postgres-pool.ts).
  const unlisten = owned ? () => {} : listenOnPool(pool);
  const schema = opts.schema ?? DEFAULT_PG_SCHEMA;
  const sql = pgSql(schema);
  let closed = false;
  let ready: Promise<void> | undefined;

  /** The pool once the schema is known good; the first call migrates (or checks), later ones wait on it. */
  async function open(): Promise<Pool> {
    if (closed) throw new StoreClosedError('postgres');
    // Not made again on a lost connection: a server never reached is more likely a wrong address
    // than a failover, and the caller hears of it at once (the next call tries again).
    ready ??= (
      opts.migrate === false ? checkSchema(pool, schema) : migrateSchema(pool, schema).then(() => {})
    ).catch((error: unknown) => {
      ready = undefined; // a server that was down may be up at the next call
      throw error;
    });
    await ready;
    return pool;
  }

  /** Runs the compare-and-swap on the session row, inside the caller's transaction. */
  async function commitSession(c: PoolClient, commit: Commit): Promise<SessionRecord> {
    const [row] = await query<PgSessionRow>(c, sql.commit, [
      commit.sessionId,
      commit.expectedVersion,
      Date.now(),
      commit.headId,
      commit.nextSeq,
      JSON.stringify(commit.state),
      commit.metadata === undefined ? null : JSON.stringify(commit.metadata),
    ]);
    if (row !== undefined) return sessionFromRow(row);
    return refused(c, commit);
  }

  async function appendIn(c: PoolClient, entries: readonly Entry[], commit: Commit): Promise<SessionRecord> {
    const record = await commitSession(c, commit);
    if (entries.length === 0) return record;
    await c.query('SAVEPOINT entries');
    try {
      await query(c, sql.insertEntries, columnArrays(entries.map(entryValues)));
    } catch (error) {
      if (pgError(error).code !== '23505') throw error;
      await c.query('ROLLBACK TO SAVEPOINT entries');
      throw await duplicateEntry(c, entries, commit.sessionId, error);
    }
    return record;
  }

  /**
   * An append in one statement (one round trip, no transaction to open and commit). A statement
   * of its own commits as it ends: a connection lost while it ran may have committed it, which
   * the caller's `landed` check settles. Only a refused write asks more of the server: whose
   * version won, or which entry clashed.
   */
  async function appendAlone(p: Pool, entries: readonly Entry[], commit: Commit): Promise<SessionRecord> {
    const release = guarded(await p.connect());
    let broken: Error | undefined;
    try {
      const now = Date.now();
      const metadata = commit.metadata === undefined ? null : JSON.stringify(commit.metadata);
      const [one] = entries;
      // A turn's single entry as scalars; a batch (or none) as one array per column.
      const [row] = await prepared<{ created_at: number; metadata: string | null }>(
        release.client,
        entries.length === 1 ? sql.appendOne : sql.appendCommit,
        [
          ...[commit.sessionId, commit.expectedVersion, now, commit.headId, commit.nextSeq],
          ...[JSON.stringify(commit.state), metadata, opts.synchronousCommit ? 'on' : 'off'],
          ...(entries.length === 1 ? entryValues(one!) : columnArrays(entries.map(entryValues))),
        ],
      );
      if (row === undefined) return await refused(release.client, commit);
      return committedRecord(commit, now, row);
    } catch (error) {
      if (connectionLost(error)) {
        broken = error as Error;
        throw new CommitUnknownError(error);
      }
      if (pgError(error).code !== '23505') throw error;
      throw await duplicateEntry(release.client, entries, commit.sessionId, error);
    } finally {
      release(broken);
    }
  }

  /** Why a compare-and-swap matched no row: another writer's version, or no such session. */
  async function refused(c: PoolClient, commit: Commit): Promise<never> {
    const [found] = await query<{ version: number }>(c, sql.versionOf, [commit.sessionId]);
    if (found === undefined) throw new UnknownSessionError(commit.sessionId);
    throw new VersionConflictError(commit.sessionId, commit.expectedVersion, found.version);
  }

  /** Which entry of a refused batch clashed with a stored one, as the other stores name it. */
  async function duplicateEntry(c: PoolClient, entries: readonly Entry[], sessionId: string, error: unknown) {
    const rows = await query<{ seq: number; id: string }>(c, sql.clashes, [
      sessionId,
      entries.map((e) => e.seq),
      entries.map((e) => e.id),
    ]);
    const seqs = new Set(rows.map((r) => r.seq));
    const ids = new Set(rows.map((r) => r.id));
    for (const e of entries) {
      if (seqs.has(e.seq)) return new DuplicateEntryError(sessionId, 'seq', e.seq);
      if (ids.has(e.id)) return new DuplicateEntryError(sessionId, 'id', e.id);
    }
    return error;
  }

  async function createIn(
    c: PoolClient,
    record: SessionRecord,
    initial?: NewSession['initial'],
  ): Promise<void> {
    try {
      await query(c, sql.insertSession, sessionValues(record));
    } catch (error) {
      if (pgError(error).code === '23505') throw new DuplicateSessionError(record.id);
      throw error;
    }
    if (initial) await appendIn(c, initial.entries, initial.commit);
  }

  const ledger = postgresLedger(open, sql);
  const landed = landedChecks(pool, sql);
  /** A read (or an idempotent write), made again on a new connection if the connection is lost. */
  const read = async <T>(operation: string, run: (p: Pool) => Promise<T>) => {
    const p = await open();
    return reconnecting(operation, () => run(p));
  };

  return {
    kind: 'postgres',
    ...ledger,

    async createSession(record, initial) {
      checkNewSessions([{ record }]);
      if (initial) checkAppendBatch(initial.entries, initial.commit.sessionId);
      const p = await open();
      await reconnecting(
        'create session',
        () => inTransaction(p, (c) => createIn(c, record, initial)),
        landed.created([{ record, initial }]),
      );
    },

    async createSessions(batch) {
      checkNewSessions(batch);
      for (const { initial } of batch)
        if (initial) checkAppendBatch(initial.entries, initial.commit.sessionId);
      const p = await open();
      const create = async (c: PoolClient) => {
        for (const { record, initial } of batch) await createIn(c, record, initial);
      };
      await reconnecting('create sessions', () => inTransaction(p, create), landed.created(batch));
    },

    async getSession(id) {
      checkSessionId(id);
      const [row] = await read('read session', (p) => prepared<PgSessionRow>(p, sql.getSession, [id]));
      return row === undefined ? undefined : sessionFromRow(row);
    },

    async sessionVersion(id) {
      const [row] = await read('read session version', (p) =>
        prepared<{ version: number }>(p, sql.versionOf, [id]),
      );
      return row?.version;
    },

    async listSessions() {
      const rows = await read('list sessions', (p) => query<PgSessionRow>(p, sql.listSessions));
      return rows.map((row) => summarizeSession(sessionFromRow(row)));
    },

    async append(entries, commit) {
      checkAppendBatch(entries, commit.sessionId);
      const p = await open();
      return reconnecting('append', () => appendAlone(p, entries, commit), landed.append(entries, commit));
    },

    async updateParts(updates, commit) {
      checkPartsUpdates(updates, commit.sessionId);
      const p = await open();
      const write = (c: PoolClient) =>
        commitSession(c, commit).then(async (record) => {
          await rewriteParts(c, sql, commit.sessionId, updates);
          return record;
        });
      return reconnecting('update parts', () => inTransaction(p, write), landed.updateParts(updates, commit));
    },

    async loadFrom(sessionId, fromSeq, toSeq) {
      const rows = await read('load entries', (p) =>
        toSeq === undefined
          ? prepared<PgEntryRow>(p, sql.loadFrom, [sessionId, fromSeq])
          : query<PgEntryRow>(p, sql.loadRange, [sessionId, fromSeq, toSeq]),
      );
      return rows.map(entryFromRow);
    },

    async getEntry(sessionId, entryId) {
      const [row] = await read('read entry', (p) => query<PgEntryRow>(p, sql.getEntry, [sessionId, entryId]));
      return row === undefined ? undefined : entryFromRow(row);
    },

    async search(text, opts = {}) {
      return read('search', (p) => searchEntries(p, sql, text, opts));
    },

    async deleteSession(id) {
      // The session row first: an append racing this waits on it, then finds no session and
      // writes nothing; the entries after, in a statement of their own, so that its snapshot
      // holds every append that committed first. Deleting again is harmless, so a lost
      // connection just deletes again.
      const remove = async (c: PoolClient) => {
        await query(c, sql.deleteSession, [id]);
        await query(c, sql.deleteEntries, [id]);
      };
      await read('delete session', (p) => inTransaction(p, remove));
    },

    async close() {
      if (closed) return;
      closed = true;
      unlisten();
      if (owned) await pool.end();
    },
  };
}
