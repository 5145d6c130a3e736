import type { Pool, PoolClient } from 'pg';
import type { Role } from '../model/message.js';
import { inTransaction, pgError, query } from './postgres-pool.js';
import { entryFromRow, type PgEntryRow } from './postgres-rows.js';
import type { PgSql } from './postgres-sql.js';
import { searchQueries, searchVector } from './postgres-text.js';
import { type EntryHit, entryHit, entrySearchText, type SearchOptions } from './search.js';
import { parseSearchQuery, searchLimit } from './search-query.js';

type SearchRow = PgEntryRow & { role: Role | null; rank: number };

/** Entries indexed per transaction: bounds the rows one holds locked and the text it carries. */
export const INDEX_BATCH = 500;

/**
 * `store.search` on Postgres: one query through a GIN index on each entry's words (a tsvector
 * column). An append leaves the words out (a turn does not pay for them); the search first indexes
 * what was appended since the last one, whichever process appended it (indexPending).
 */
export async function searchEntries(
  pool: Pool,
  sql: PgSql,
  text: string,
  opts: SearchOptions,
): Promise<EntryHit[]> {
  const parsed = parseSearchQuery(text);
  const limit = searchLimit(opts.limit);
  const { words, phrases } = searchQueries(parsed);
  await indexPending(pool, sql);
  const rows = await query<SearchRow>(pool, sql.search, [words, phrases, opts.sessionId ?? null, limit]);
  return rows.map((row) => entryHit(entryFromRow(row), row.rank, parsed));
}

/**
 * Writes the words of every entry that has none yet, a batch per transaction, until none is
 * left; one indexed read when there is nothing to do. Processes doing this at once each index a
 * row once: rows are locked in key order, and one indexed meanwhile is skipped. A server that
 * takes no writes (a read-only standby, a role without UPDATE) searches what is indexed already.
 */
async function indexPending(pool: Pool, sql: PgSql): Promise<void> {
  if ((await query(pool, sql.anyUnindexed)).length === 0) return;
  try {
    while (await inTransaction(pool, (c) => indexBatch(c, sql))) {}
  } catch (error) {
    if (!READ_ONLY.has(pgError(error).code ?? '')) throw error;
  }
}

/** 25006: a read-only transaction (a hot standby); 42501: no UPDATE privilege. */
const READ_ONLY = new Set(['25006', '42501']);

/** Indexes one batch inside the caller's transaction; whether any row was found. */
async function indexBatch(c: PoolClient, sql: PgSql): Promise<boolean> {
  const rows = await query<PgEntryRow>(c, sql.unindexed, [INDEX_BATCH]);
  if (rows.length === 0) return false;
  const vectors = rows.map((row) => searchVector(searchTextOfRow(row)));
  await query(c, sql.indexEntries, [
    rows.map((r) => r.session_id),
    rows.map((r) => r.seq),
    vectors.map((v) => v.vector),
    vectors.map((v) => v.words),
  ]);
  return true;
}

/** A row's text; one that no longer reads as an entry is indexed by its raw JSON (still findable). */
function searchTextOfRow(row: PgEntryRow): string {
  try {
    return entrySearchText(entryFromRow(row));
  } catch {
    return `${row.body}\n${row.parts ?? ''}`;
  }
}
