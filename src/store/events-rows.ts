import type { JsonObject } from '../model/json.js';
import type { StoredEvent } from './events.js';
import { storedEvent } from './events-memory.js';

/** An `events` row as the SQL stores read it (metadata as JSON text). */
export interface EventRow {
  seq: number;
  id: string;
  channel: string;
  external_id: string;
  author: string;
  at: number;
  body: string;
  metadata: string;
  recorded_at: number;
}

export function eventFromRow(row: EventRow): StoredEvent {
  let metadata: JsonObject;
  try {
    metadata = JSON.parse(row.metadata) as JsonObject;
  } catch (error) {
    throw new Error(
      `events row (seq ${row.seq}, channel ${row.channel}): column metadata is not valid JSON: ${(error as Error).message}`,
    );
  }
  const event = { ...row, externalId: row.external_id, metadata };
  return storedEvent(event, row.id, row.seq, row.recorded_at);
}
