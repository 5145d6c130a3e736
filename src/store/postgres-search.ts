import type { Pool } from 'pg';
import type { Role } from '../model/message.js';
import { query } from './postgres-pool.js';
import { entryFromRow, type PgEntryRow } from './postgres-rows.js';
import type { PgSql } from './postgres-sql.js';
import { searchQueries } from './postgres-text.js';
import { type EntryHit, entryHit, type SearchOptions } from './search.js';
import { parseSearchQuery, searchLimit } from './search-query.js';

type SearchRow = PgEntryRow & { role: Role | null; rank: number };

/**
 * `store.search` on Postgres: the entries' words are indexed as they are written (a GIN index on
 * a tsvector column), so a search is one indexed query whichever process wrote what.
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
  const rows = await query<SearchRow>(pool, sql.search, [words, phrases, opts.sessionId ?? null, limit]);
  return rows.map((row) => entryHit(entryFromRow(row), row.rank, parsed));
}
