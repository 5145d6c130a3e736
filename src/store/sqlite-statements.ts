import type Database from 'better-sqlite3';
import { ENTRY_WRITE_COLUMNS } from './sqlite-rows.js';

const ENTRY_READ_COLUMNS = 'session_id, seq, id, parent_id, kind, created_at, tokens, part_tokens, body';

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
  entryBody: 'SELECT kind, seq, body FROM entries WHERE session_id = ? AND id = ?',
  updateEntryParts:
    'UPDATE entries SET body = ?, part_tokens = ?, tokens = ? WHERE session_id = ? AND id = ?',
  /** A range search on the (session_id, seq) primary key: cost follows the rows returned, not history. */
  loadFrom: `SELECT ${ENTRY_READ_COLUMNS} FROM entries WHERE session_id = ? AND seq >= ? ORDER BY seq`,
  getEntry: `SELECT ${ENTRY_READ_COLUMNS} FROM entries WHERE session_id = ? AND id = ?`,
  deleteEntries: 'DELETE FROM entries WHERE session_id = ?',
  deleteSession: 'DELETE FROM sessions WHERE id = ?',
} as const;

export type Statements = { [K in keyof typeof SQL]: Database.Statement };

/** Prepared once per connection and reused: preparing per call would dominate bulk appends. */
export function prepareStatements(db: Database.Database): Statements {
  return Object.fromEntries(Object.entries(SQL).map(([key, sql]) => [key, db.prepare(sql)])) as Statements;
}
