import type { PoolClient } from 'pg';
import type { Message } from '../model/message.js';
import { StoreWriteError } from './errors.js';
import { query } from './postgres-pool.js';
import type { PgSql } from './postgres-sql.js';
import { searchVector } from './postgres-text.js';
import { messageSearchText } from './search.js';
import type { PartsUpdate } from './store.js';

/** Entries rewritten per statement: bounds the JSON a statement carries (outputs included). */
export const PARTS_BATCH = 500;

/**
 * Applies `updates` in order (a later update of the same entry wins) with one UPDATE per batch;
 * must run inside the caller's transaction. Only the parts column and the figures change, so the
 * rest of each message is neither sent nor parsed. RETURNING tells which entries were rewritten:
 * a batch naming a missing or compaction entry fails, and the transaction undoes the whole write.
 */
export async function rewriteParts(
  c: PoolClient,
  sql: PgSql,
  sessionId: string,
  updates: readonly PartsUpdate[],
): Promise<void> {
  // One row per entry and statement: an UPDATE … FROM joining two updates to a row picks either.
  const all = [...new Map(updates.map((u) => [u.entryId, u])).values()];
  for (let start = 0; start < all.length; start += PARTS_BATCH) {
    const batch = all.slice(start, start + PARTS_BATCH);
    const vectors = batch.map((u) => searchVector(messageSearchText({ parts: u.parts } as Message)));
    const written = await query<{ id: string }>(c, sql.updateParts, [
      sessionId,
      batch.map((u) => u.entryId),
      batch.map((u) => JSON.stringify(u.parts)),
      batch.map((u) => JSON.stringify(u.partTokens)),
      batch.map((u) => u.tokens),
      vectors.map((v) => v.vector),
      vectors.map((v) => v.words),
    ]);
    if (written.length < batch.length) throw await notRewritten(c, sql, sessionId, batch, written);
  }
}

/** The error for a batch naming a missing entry or one that has no parts. */
async function notRewritten(
  c: PoolClient,
  sql: PgSql,
  sessionId: string,
  batch: readonly PartsUpdate[],
  written: readonly { id: string }[],
): Promise<StoreWriteError> {
  const done = new Set(written.map((r) => r.id));
  const missing = batch.find((u) => !done.has(u.entryId))!.entryId;
  const [row] = await query<{ kind: string }>(c, sql.kindOf, [sessionId, missing]);
  return new StoreWriteError(
    row === undefined
      ? `session ${sessionId}: no entry ${missing} to update`
      : `session ${sessionId}: entry ${missing} is a ${row.kind} entry and has no parts`,
  );
}
