import { randomUUID } from 'node:crypto';
import {
  type ChannelEvent,
  DuplicateEventError,
  type EventHit,
  type EventLedger,
  eventLimit,
  eventMatches,
  eventSearchText,
  parseEvents,
  type StoredEvent,
  sameEvent,
} from './events.js';
import { parseSearchQuery, type SearchQuery } from './search-query.js';
import { rankDocs } from './search-rank.js';
import { snippet } from './search-snippet.js';

/** The ledger every store builds its stored events with, fields in one order. */
export function storedEvent(event: ChannelEvent, id: string, seq: number, recordedAt: number): StoredEvent {
  const { channel, externalId, author, at, body } = event;
  return { id, seq, channel, externalId, author, at, body, metadata: event.metadata ?? {}, recordedAt };
}

/** A hit's snippet is cut from the body (its beginning when only the author matched). */
export function eventHit(event: StoredEvent, score: number, query: SearchQuery): EventHit {
  return { event, snippet: snippet(event.body, query.terms), score };
}

/** Events in time order, ledger order among equal times. */
export function byTime(a: StoredEvent, b: StoredEvent): number {
  return a.at - b.at || a.seq - b.seq;
}

/**
 * The memory store's ledger. Values are cloned in and out; a batch is checked whole before any of
 * it is kept, so a refused batch leaves nothing behind.
 */
export function memoryLedger(open: () => void): EventLedger {
  const events: StoredEvent[] = [];
  const byKey = new Map<string, StoredEvent>();
  const byId = new Map<string, StoredEvent>();
  const key = (e: { channel: string; externalId: string }) => JSON.stringify([e.channel, e.externalId]);

  return {
    async addEvents(input) {
      open();
      const parsed = parseEvents(input);
      const fresh = new Map<string, StoredEvent>();
      const out = parsed.map((event) => {
        const k = key(event);
        const known = byKey.get(k) ?? fresh.get(k);
        if (known) {
          if (!sameEvent(known, event)) throw new DuplicateEventError(event.channel, event.externalId);
          return known;
        }
        const stored = storedEvent(
          structuredClone(event),
          randomUUID(),
          events.length + fresh.size + 1,
          Date.now(),
        );
        fresh.set(k, stored);
        return stored;
      });
      for (const [k, stored] of fresh) {
        events.push(stored);
        byKey.set(k, stored);
        byId.set(stored.id, stored);
      }
      return structuredClone(out);
    },

    async getEvent(id) {
      open();
      const event = byId.get(id);
      return event === undefined ? undefined : structuredClone(event);
    },

    async listEvents(filter = {}) {
      open();
      const limit = eventLimit(filter.limit);
      return structuredClone(
        events
          .filter((e) => eventMatches(e, filter))
          .sort(byTime)
          .slice(0, limit),
      );
    },

    async searchEvents(text, filter = {}) {
      open();
      const query = parseSearchQuery(text);
      const limit = eventLimit(filter.limit);
      const docs = events.map((e) => ({ key: e, text: eventSearchText(e) }));
      return rankDocs(docs, query, (e) => eventMatches(e, filter))
        .sort((a, b) => b.score - a.score || b.key.at - a.key.at || b.key.seq - a.key.seq)
        .slice(0, limit)
        .map((r) => eventHit(structuredClone(r.key), r.score, query));
    },
  };
}
