import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import {
  type ChannelEvent,
  DuplicateEventError,
  type EventFilter,
  type EventLedger,
  eventLimit,
  eventSearchText,
  parseEvents,
  type StoredEvent,
  sameEvent,
} from './events.js';
import { eventHit, storedEvent } from './events-memory.js';
import { type EventRow, eventFromRow } from './events-rows.js';
import { inTransaction, query } from './postgres-pool.js';
import { reconnecting } from './postgres-reconnect.js';
import type { PgSql } from './postgres-sql.js';
import { searchQueries, searchVector } from './postgres-text.js';
import { parseSearchQuery } from './search-query.js';

/**
 * The Postgres store's ledger: the `events` table, one transaction per batch. A redelivery racing
 * another process's is settled by the (channel, external_id) key: the insert that loses reads
 * the winner's row and compares, as a redelivery would.
 */
export function postgresLedger(open: () => Promise<Pool>, sql: PgSql): EventLedger {
  // Every call is made again on a new connection if the connection is lost: reads, and batches
  // whose events are keyed by (channel, external id), so a batch that did land is found as such.
  const retried = async <T>(operation: string, run: (p: Pool) => Promise<T>) => {
    const p = await open();
    return reconnecting(operation, () => run(p));
  };

  async function addOne(c: PoolClient, event: ChannelEvent): Promise<StoredEvent> {
    const known = async () => {
      const [row] = await query<EventRow>(c, sql.eventByKey, [event.channel, event.externalId]);
      return row && eventFromRow(row);
    };
    const stored = await known();
    if (stored === undefined) {
      const id = randomUUID();
      const recordedAt = Date.now();
      const { vector, words } = searchVector(eventSearchText(event));
      const [row] = await query<{ seq: number }>(c, sql.insertEvent, [
        id,
        event.channel,
        event.externalId,
        event.author,
        event.at,
        event.body,
        JSON.stringify(event.metadata ?? {}),
        recordedAt,
        vector,
        words,
      ]);
      if (row !== undefined) return storedEvent(event, id, row.seq, recordedAt);
    }
    const found = stored ?? (await known())!;
    if (!sameEvent(found, event)) throw new DuplicateEventError(event.channel, event.externalId);
    return found;
  }

  const filterParams = (filter: EventFilter) => [
    filter.channel ?? null,
    filter.author ?? null,
    filter.since ?? null,
    filter.until ?? null,
    eventLimit(filter.limit),
  ];

  return {
    async addEvents(input) {
      const events = parseEvents(input);
      return retried('add events', (p) =>
        inTransaction(p, async (c) => {
          const out: StoredEvent[] = [];
          for (const event of events) out.push(await addOne(c, event));
          return out;
        }),
      );
    },

    async getEvent(id) {
      const [row] = await retried('read event', (p) => query<EventRow>(p, sql.eventById, [id]));
      return row === undefined ? undefined : eventFromRow(row);
    },

    async listEvents(filter = {}) {
      const params = filterParams(filter);
      const rows = await retried('list events', (p) => query<EventRow>(p, sql.listEvents, params));
      return rows.map(eventFromRow);
    },

    async searchEvents(text, filter = {}) {
      const parsed = parseSearchQuery(text);
      const params = filterParams(filter);
      const { words, phrases } = searchQueries(parsed);
      const rows = await retried('search events', (p) =>
        query<EventRow & { rank: number }>(p, sql.searchEvents, [...params, words, phrases]),
      );
      return rows.map((row) => eventHit(eventFromRow(row), row.rank, parsed));
    },
  };
}
