import type Database from 'better-sqlite3';
import type { Message } from '../model/message.js';
import { CorruptRowError, StoreWriteError } from './errors.js';
import { messageSearchText } from './search.js';
import type { EntryIndex } from './sqlite-search.js';
import type { PartsUpdate } from './store.js';

/** Entries rewritten per statement: bounds the JSON a statement carries (outputs included). */
const BATCH = 500;

/**
 * One UPDATE per batch of entries: the new parts are set inside each stored body by SQLite
 * (json_set keeps the message's other fields), so nothing is read back and re-serialized in JS.
 * The batch is materialized first so that each entry is found through its (session_id, id) key
 * (a plain UPDATE … FROM json_each scans the session's entries instead); a CTE column loses its
 * JSON subtype, so json() marks the parts as JSON again. RETURNING tells which
 * entries were rewritten: a batch naming a missing or compaction entry fails, and the caller's
 * transaction undoes the whole write.
 */
export const UPDATE_PARTS_SQL = `WITH u(id, parts, part_tokens, tokens) AS MATERIALIZED (
    SELECT value ->> '$.entryId', value -> '$.parts', value -> '$.partTokens', value ->> '$.tokens'
    FROM json_each(?))
  UPDATE entries SET body = json_set(body, '$.parts', json(u.parts)), part_tokens = u.part_tokens, tokens = u.tokens
  FROM u
  WHERE entries.session_id = ? AND entries.id = u.id AND entries.kind = 'message'
  RETURNING id, rowid`;

const KIND_SQL = 'SELECT kind FROM entries WHERE session_id = ? AND id = ?';
const INVALID_BODY_SQL = `SELECT e.seq FROM entries AS e, json_each(?) AS u
  WHERE e.session_id = ? AND e.id = u.value AND NOT json_valid(e.body) ORDER BY e.seq LIMIT 1`;

export interface PartsStatements {
  update: Database.Statement;
  kind: Database.Statement;
  invalidBody: Database.Statement;
  searchWatermark: Database.Statement;
}

export function preparePartsStatements(db: Database.Database): PartsStatements {
  return {
    update: db.prepare(UPDATE_PARTS_SQL),
    kind: db.prepare(KIND_SQL),
    invalidBody: db.prepare(INVALID_BODY_SQL),
    searchWatermark: db.prepare('SELECT indexed_through FROM search_state'),
  };
}

/**
 * Applies `updates` in order (a later update of the same entry wins); must run inside a
 * transaction. Entries the search index already holds are re-indexed with their new parts (erase
 * mode changes the text; see sqlite-search.ts), the others are indexed later as they are then.
 */
export function rewriteParts(
  st: PartsStatements,
  index: Pick<EntryIndex, 'changed'>,
  sessionId: string,
  updates: readonly PartsUpdate[],
): void {
  // One row per entry and statement: an UPDATE … FROM joining two updates to a row picks either.
  const latest = new Map(updates.map((u) => [u.entryId, u]));
  const all = [...latest.values()];
  const indexedThrough = (st.searchWatermark.get() as { indexed_through: number }).indexed_through;
  for (let start = 0; start < all.length; start += BATCH) {
    const batch = all.slice(start, start + BATCH);
    const json = JSON.stringify(
      batch.map(({ entryId, parts, partTokens, tokens }) => ({ entryId, parts, partTokens, tokens })),
    );
    let written: { id: string; rowid: number }[];
    try {
      written = st.update.all(json, sessionId) as { id: string; rowid: number }[];
    } catch (error) {
      throw corruptBody(st, sessionId, batch) ?? error;
    }
    if (written.length < batch.length) throw notRewritten(st, sessionId, batch, written);
    for (const { id, rowid } of written) {
      if (rowid > indexedThrough) continue;
      // The search text is made of the parts alone.
      index.changed(rowid, messageSearchText({ parts: latest.get(id)!.parts } as Message));
    }
  }
}

/** The error for a batch naming a missing entry or one that has no parts. */
function notRewritten(
  st: PartsStatements,
  sessionId: string,
  batch: readonly PartsUpdate[],
  written: readonly { id: string }[],
): StoreWriteError {
  const done = new Set(written.map((r) => r.id));
  const missing = batch.find((u) => !done.has(u.entryId))!.entryId;
  const row = st.kind.get(sessionId, missing) as { kind: string } | undefined;
  return new StoreWriteError(
    row === undefined
      ? `session ${sessionId}: no entry ${missing} to update`
      : `session ${sessionId}: entry ${missing} is a ${row.kind} entry and has no parts`,
  );
}

/** A stored body that is not JSON is named by session and seq, as a read of it would be. */
function corruptBody(
  st: PartsStatements,
  sessionId: string,
  batch: readonly PartsUpdate[],
): CorruptRowError | undefined {
  const ids = JSON.stringify(batch.map((u) => u.entryId));
  const row = st.invalidBody.get(ids, sessionId) as { seq: number } | undefined;
  return row && new CorruptRowError('entries', sessionId, row.seq, 'body', 'json_set could not parse it');
}
