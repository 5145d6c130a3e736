import type Database from 'better-sqlite3';
import { ENTRY_LOAD_COLUMNS, ENTRY_WRITE_COLUMNS } from './sqlite-rows.js';

const ENTRY_READ_COLUMNS = 'session_id, seq, id, parent_id, kind, created_at, tokens, part_tokens, body';

/** The optional filters of an event listing or search; a NULL parameter filters nothing. */
const EVENT_FILTER = `(@channel IS NULL OR channel = @channel) AND (@author IS NULL OR author = @author)
  AND (@since IS NULL OR at >= @since) AND (@until IS NULL OR at < @until)`;

/** Every statement the store runs; exported so tests can EXPLAIN them exactly as they are run. */
export const SQL = {
  insertSession: `INSERT INTO sessions (id, created_at, updated_at, head_id, version, next_seq, metadata, state)
    VALUES (@id, @created_at, @updated_at, @head_id, @version, @next_seq, @metadata, @state)`,
  getSession: 'SELECT * FROM sessions WHERE id = ?',
  listSessions: 'SELECT * FROM sessions ORDER BY created_at, id',
  versionOf: 'SELECT version FROM sessions WHERE id = ?',
  /** The compare-and-swap: 0 rows back means someone else wrote first (or the session is gone). */
  commit: `UPDATE sessions SET updated_at = @updated_at, head_id = @head_id, version = @expected + 1,
      next_seq = @next_seq, state = @state, metadata = COALESCE(@metadata, metadata)
    WHERE id = @id AND version = @expected
    RETURNING *`,
  insertEntry: `INSERT INTO entries (${ENTRY_WRITE_COLUMNS.join(', ')})
    VALUES (${ENTRY_WRITE_COLUMNS.map(() => '?').join(', ')})`,
  /** A range search on the (session_id, seq) primary key: cost follows the rows returned, not history. */
  /** Read in raw mode (RAW_READS): rows as arrays of ENTRY_LOAD_COLUMNS. */
  loadFrom: `SELECT ${ENTRY_LOAD_COLUMNS} FROM entries WHERE session_id = ? AND seq >= ? ORDER BY seq`,
  loadRange: `SELECT ${ENTRY_LOAD_COLUMNS} FROM entries WHERE session_id = ? AND seq >= ? AND seq < ? ORDER BY seq`,
  getEntry: `SELECT ${ENTRY_LOAD_COLUMNS} FROM entries WHERE session_id = ? AND id = ?`,
  deleteEntries: 'DELETE FROM entries WHERE session_id = ?',
  /** The search index follows the entries table by rowid, up to a watermark (see sqlite-search.ts). */
  indexEntry: 'INSERT INTO entries_fts (rowid, text) VALUES (?, ?)',
  unindexEntry: 'DELETE FROM entries_fts WHERE rowid = ?',
  unindexSession: `DELETE FROM entries_fts WHERE rowid IN (SELECT rowid FROM entries
    WHERE session_id = ? AND rowid <= (SELECT indexed_through FROM search_state))`,
  searchWatermark: 'SELECT indexed_through FROM search_state',
  setWatermark: 'UPDATE search_state SET indexed_through = ?',
  lowerWatermark: `UPDATE search_state
    SET indexed_through = MIN(indexed_through, (SELECT COALESCE(MAX(rowid), 0) FROM entries))`,
  unindexed: `SELECT rowid, ${ENTRY_READ_COLUMNS} FROM entries WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  /** Ties (equal bm25) newest first, as compareHits orders the memory store's hits. */
  search: `SELECT ${ENTRY_READ_COLUMNS.split(', ')
    .map((c) => `e.${c}`)
    .join(', ')}, e.role, bm25(entries_fts) AS rank
    FROM entries_fts JOIN entries e ON e.rowid = entries_fts.rowid
    WHERE entries_fts MATCH @match AND (@session IS NULL OR e.session_id = @session)
    ORDER BY rank, e.created_at DESC, e.session_id, e.seq DESC
    LIMIT @limit`,
  deleteSession: 'DELETE FROM sessions WHERE id = ?',
  insertEvent: `INSERT INTO events (id, channel, external_id, author, at, body, metadata, recorded_at)
    VALUES (@id, @channel, @external_id, @author, @at, @body, @metadata, @recorded_at)`,
  eventByKey: 'SELECT * FROM events WHERE channel = ? AND external_id = ?',
  eventById: 'SELECT * FROM events WHERE id = ?',
  listEvents: `SELECT * FROM events WHERE ${EVENT_FILTER} ORDER BY at, seq LIMIT @limit`,
  /** Ties (equal bm25) newest first, as the memory ledger orders them. */
  searchEvents: `SELECT ev.*, bm25(events_fts) AS rank
    FROM events_fts JOIN events ev ON ev.seq = events_fts.rowid
    WHERE events_fts MATCH @match AND ${EVENT_FILTER}
    ORDER BY rank, ev.at DESC, ev.seq DESC
    LIMIT @limit`,
} as const;

export type Statements = { [K in keyof typeof SQL]: Database.Statement };

/** The statements whose rows come back as arrays (see ENTRY_LOAD_COLUMNS). */
const RAW_READS: ReadonlySet<string> = new Set<keyof typeof SQL>(['loadFrom', 'loadRange', 'getEntry']);

/** Prepared once per connection and reused: preparing per call would dominate bulk appends. */
export function prepareStatements(db: Database.Database): Statements {
  const prepare = (key: string, sql: string) => {
    const statement = db.prepare(sql);
    return RAW_READS.has(key) ? statement.raw(true) : statement;
  };
  return Object.fromEntries(Object.entries(SQL).map(([key, sql]) => [key, prepare(key, sql)])) as Statements;
}
