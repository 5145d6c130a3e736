import { isDeepStrictEqual } from 'node:util';
import type { Pool } from 'pg';
import type { Entry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import { DuplicateSessionError } from './errors.js';
import { query } from './postgres-pool.js';
import type { Landed } from './postgres-reconnect.js';
import { type PgSessionRow, sessionFromRow } from './postgres-rows.js';
import type { PgSql } from './postgres-sql.js';
import { type Commit, type NewSession, type PartsUpdate, VersionConflictError } from './store.js';

/**
 * Whether a write whose COMMIT was lost with the connection landed (see reconnecting). Each asks
 * the stored rows: the write's own entries or parts are there, or the session is still at the
 * version the write expected (it did not land: make it again), or another writer's commit took
 * the version instead (a VersionConflictError, which the session's Log retries as any race).
 */
export function landedChecks(pool: Pool, sql: PgSql) {
  const session = async (id: string) => {
    const [row] = await query<PgSessionRow>(pool, sql.getSession, [id]);
    return row === undefined ? undefined : sessionFromRow(row);
  };
  const hasEntry = async (sessionId: string, id: string) =>
    (await query(pool, sql.clashes, [sessionId, [], [id]])).length > 0;

  /**
   * The write's commit landed if `written(stored, state)` finds its effect; the record as that
   * commit left it. Its own entries or parts tell best: a state equal to the write's could also
   * be another writer's that computed the same figures.
   */
  function commitLanded(
    commit: Commit,
    written: (stored: SessionRecord, state: SessionRecord['state']) => Promise<boolean>,
  ): Landed<SessionRecord> {
    return async () => {
      const stored = await session(commit.sessionId);
      if (stored === undefined || stored.version === commit.expectedVersion) return null;
      const state = JSON.parse(JSON.stringify(commit.state)) as SessionRecord['state'];
      if (!(await written(stored, state)))
        throw new VersionConflictError(commit.sessionId, commit.expectedVersion, stored.version);
      // Later writers may have moved the row on: the caller's Log catches up with them as usual.
      const metadata = commit.metadata ?? stored.metadata;
      const { headId, nextSeq } = commit;
      return { value: { ...stored, version: commit.expectedVersion + 1, headId, nextSeq, state, metadata } };
    };
  }

  return {
    append(entries: readonly Entry[], commit: Commit): Landed<SessionRecord> {
      const last = entries.at(-1);
      // A write of the session row alone (an integration's cursor) has only its state to go by.
      return commitLanded(commit, async (stored, state) =>
        last === undefined
          ? stored.version === commit.expectedVersion + 1 && isDeepStrictEqual(stored.state, state)
          : hasEntry(commit.sessionId, last.id),
      );
    },

    updateParts(updates: readonly PartsUpdate[], commit: Commit): Landed<SessionRecord> {
      // The last update of each entry is what it holds if the write landed.
      const want = new Map(updates.map((u) => [u.entryId, JSON.stringify(u.parts)]));
      return commitLanded(commit, async () => {
        const rows = await query<{ id: string; parts: string }>(pool, sql.partsOf, [
          commit.sessionId,
          [...want.keys()],
        ]);
        return rows.length === want.size && rows.every((r) => want.get(r.id) === r.parts);
      });
    },

    /** Sessions created in one transaction: all of them are ours, or none landed. */
    created(batch: readonly NewSession[]): Landed<void> {
      return async () => {
        for (const { record, initial } of batch) {
          const stored = await session(record.id);
          if (stored === undefined) return null;
          const last = initial?.entries.at(-1);
          const ours =
            stored.createdAt === record.createdAt && (!last || (await hasEntry(record.id, last.id)));
          if (!ours) throw new DuplicateSessionError(record.id);
        }
        return { value: undefined };
      };
    },
  };
}
