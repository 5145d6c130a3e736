import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  type ChannelEvent,
  DuplicateEventError,
  type EventFilter,
  type EventLedger,
  eventLimit,
  parseEvents,
  type StoredEvent,
  sameEvent,
} from './events.js';
import { eventHit, storedEvent } from './events-memory.js';
import { type EventRow, eventFromRow } from './events-rows.js';
import { ftsExpression, parseSearchQuery } from './search-query.js';
import type { Statements } from './sqlite-statements.js';

/** The SQLite store's ledger: the `events` table (migration 3), one transaction per batch. */
export function sqliteLedger(db: Database.Database, open: () => Statements): EventLedger {
  const addTx = db.transaction((events: ChannelEvent[]): StoredEvent[] => {
    const st = open();
    return events.map((event) => {
      const row = st.eventByKey.get(event.channel, event.externalId) as EventRow | undefined;
      if (row !== undefined) {
        const known = eventFromRow(row);
        if (!sameEvent(known, event)) throw new DuplicateEventError(event.channel, event.externalId);
        return known;
      }
      const id = randomUUID();
      const recordedAt = Date.now();
      const { lastInsertRowid } = st.insertEvent.run({
        id,
        channel: event.channel,
        external_id: event.externalId,
        author: event.author,
        at: event.at,
        body: event.body,
        metadata: JSON.stringify(event.metadata ?? {}),
        recorded_at: recordedAt,
      });
      return storedEvent(event, id, Number(lastInsertRowid), recordedAt);
    });
  });

  const filterParams = (filter: EventFilter) => ({
    channel: filter.channel ?? null,
    author: filter.author ?? null,
    since: filter.since ?? null,
    until: filter.until ?? null,
    limit: eventLimit(filter.limit),
  });

  return {
    async addEvents(input) {
      const events = parseEvents(input);
      open();
      return addTx(events);
    },

    async getEvent(id) {
      const row = open().eventById.get(id) as EventRow | undefined;
      return row === undefined ? undefined : eventFromRow(row);
    },

    async listEvents(filter = {}) {
      return (open().listEvents.all(filterParams(filter)) as EventRow[]).map(eventFromRow);
    },

    async searchEvents(text, filter = {}) {
      const query = parseSearchQuery(text);
      const rows = open().searchEvents.all({
        ...filterParams(filter),
        match: ftsExpression(query),
      }) as (EventRow & {
        rank: number;
      })[];
      return rows.map((row) => eventHit(eventFromRow(row), -row.rank, query));
    },
  };
}
