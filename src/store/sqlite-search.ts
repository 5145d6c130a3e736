import type Database from 'better-sqlite3';
import type { Role } from '../model/message.js';
import { CorruptRowError } from './errors.js';
import { type EntryHit, entryHit, entrySearchText, type SearchOptions } from './search.js';
import { ftsExpression, parseSearchQuery, type SearchQuery, searchLimit } from './search-query.js';
import { snippet } from './search-snippet.js';
import { type EntryRow, entryFromRow } from './sqlite-rows.js';
import type { Statements } from './sqlite-statements.js';

/**
 * The entries' full-text index (entries_fts, migration 2), kept off the per-turn path: appends
 * write nothing to it. A search first indexes what was appended since the last one (in rowid
 * order, up to the watermark in search_state), in one transaction, then queries. Batched this way
 * an entry costs a fraction of what a write of its own would on every append.
 *
 * Rows at or below the watermark are in the index, so a change to one (erase-mode pruning, a
 * deleted session) updates the index in the same transaction; rows above it are indexed later
 * with whatever they hold by then.
 */
export interface EntryIndex {
  search(text: string, opts: SearchOptions): Promise<EntryHit[]>;
  /** Inside a transaction: `rowid` now holds `text` (re-indexed only if already indexed). */
  changed(rowid: number, text: string): void;
  /**
   * Inside a transaction: takes the session's rows out of the index around `remove` (which deletes
   * them), and lowers the watermark under rowids SQLite may hand out again.
   */
  deleting(sessionId: string, remove: () => void): void;
}

type SearchRow = EntryRow & { role: Role | null; rank: number };

/** Rows indexed per transaction: about 50 ms of holding the write lock at most. */
const BATCH = 500;

export function entryIndex(db: Database.Database, open: () => Statements, readonly: boolean): EntryIndex {
  const watermark = (st: Statements) =>
    (st.searchWatermark.get() as { indexed_through: number }).indexed_through;

  // One batch per transaction, so a long backlog (an imported log) never holds the write lock
  // for longer than a batch; IMMEDIATE, so two connections catching up index each row once (the
  // second re-reads the watermark). Returns whether rows may remain.
  const catchUpBatch = db.transaction((): boolean => {
    const st = open();
    const rows = st.unindexed.all(watermark(st), BATCH) as (EntryRow & { rowid: number })[];
    for (const row of rows) st.indexEntry.run(row.rowid, searchTextOfRow(row));
    if (rows.length > 0) st.setWatermark.run(rows.at(-1)!.rowid);
    return rows.length === BATCH;
  });

  return {
    async search(text, opts) {
      const query = parseSearchQuery(text);
      const limit = searchLimit(opts.limit);
      // A read-only connection searches what writers have indexed.
      if (!readonly) while (catchUpBatch.immediate());
      const rows = open().search.all({
        match: ftsExpression(query),
        session: opts.sessionId ?? null,
        limit,
      }) as SearchRow[];
      return rows.map((row) => hitOfRow(row, query));
    },

    changed(rowid, text) {
      const st = open();
      if (rowid > watermark(st)) return;
      st.unindexEntry.run(rowid);
      st.indexEntry.run(rowid, text);
    },

    deleting(sessionId, remove) {
      const st = open();
      st.unindexSession.run(sessionId);
      remove();
      st.lowerWatermark.run();
    },
  };
}

/** A row's text; a body that no longer parses is indexed as its raw text (still findable). */
function searchTextOfRow(row: EntryRow): string {
  try {
    return entrySearchText(entryFromRow(row));
  } catch {
    return row.body;
  }
}

/** A hit; a row whose body no longer parses is still reported (snippet from its raw text) so it can be found. */
function hitOfRow(row: SearchRow, query: SearchQuery): EntryHit {
  try {
    return entryHit(entryFromRow(row), -row.rank, query);
  } catch (error) {
    if (!(error instanceof CorruptRowError)) throw error;
    return {
      sessionId: row.session_id,
      entryId: row.id,
      seq: row.seq,
      kind: row.kind === 'compaction' ? 'compaction' : 'message',
      role: row.role,
      createdAt: row.created_at,
      snippet: snippet(row.body, query.terms),
      score: -row.rank,
    };
  }
}
