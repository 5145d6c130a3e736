import { z } from 'zod';
import type { InputLocation } from '../model/errors.js';
import { type JsonObject, jsonObjectSchema } from '../model/json.js';
import { parseWith } from '../model/validate.js';
import { searchLimit } from './search-query.js';

/**
 * The events ledger (Nexus "Events Ledger vs Agents Ledger"): what external channels delivered
 * (a chat message, a mail, a webhook), kept apart from sessions. It is append-only — never
 * compacted, pruned, changed or deleted — so the full history of every channel stays searchable
 * whatever happened to the agent sessions that quoted it.
 */
export const channelEventSchema = z
  .object({
    channel: z.string().min(1),
    /** The channel's own id for the event; (channel, externalId) identifies it. */
    externalId: z.string().min(1),
    author: z.string(),
    /** When the channel says it happened, ms since epoch. */
    at: z.number().int().nonnegative(),
    body: z.string(),
    metadata: jsonObjectSchema.optional(),
  })
  .strict();

export type ChannelEvent = z.infer<typeof channelEventSchema>;

export interface StoredEvent {
  /** The ledger's id for the event, which session entries quoting it reference. */
  id: string;
  /** Position in the ledger, in the order events were recorded. */
  seq: number;
  channel: string;
  externalId: string;
  author: string;
  at: number;
  body: string;
  metadata: JsonObject;
  /** When the ledger recorded it, ms since epoch. */
  recordedAt: number;
}

export interface EventFilter {
  channel?: string;
  author?: string;
  /** Events at or after this time (ms). */
  since?: number;
  /** Events before this time (ms). */
  until?: number;
  /** At most this many (default 20, at most 1,000). */
  limit?: number;
}

export interface EventHit {
  event: StoredEvent;
  /** One line of the body around the first match, matched words in «». */
  snippet: string;
  /** Relevance, higher is better (bm25 over author and body); comparable within one search. */
  score: number;
}

/** The ledger a store keeps beside its sessions (memory, SQLite; Postgres later). */
export interface EventLedger {
  /**
   * Records events, all or none. Delivering the same event again (same channel and externalId,
   * same content) is a no-op returning the stored one; the same key with other content is refused
   * with DuplicateEventError, as the ledger never changes what it holds.
   */
  addEvents(events: readonly ChannelEvent[]): Promise<StoredEvent[]>;
  getEvent(id: string): Promise<StoredEvent | undefined>;
  /** Events in time order (`at`, then ledger order). */
  listEvents(filter?: EventFilter): Promise<StoredEvent[]>;
  /** Full-text search over author and body (the query syntax of store.search), best first. */
  searchEvents(query: string, filter?: EventFilter): Promise<EventHit[]>;
}

export function isEventLedger(store: object): store is EventLedger {
  const s = store as Partial<EventLedger>;
  return typeof s.addEvents === 'function' && typeof s.searchEvents === 'function';
}

/** The same key delivered again with different content. */
export class DuplicateEventError extends Error {
  override name = 'DuplicateEventError';
  constructor(
    readonly channel: string,
    readonly externalId: string,
  ) {
    super(
      `event ${JSON.stringify(externalId)} of channel ${JSON.stringify(channel)} is already in the ledger with other content; the ledger never changes an event`,
    );
  }
}

/** Validates events before anything is written; the error names the event's index and field. */
export function parseEvents(input: readonly unknown[], where: InputLocation = {}): ChannelEvent[] {
  return input.map((value, i) =>
    parseWith(channelEventSchema, value, { ...where, field: `${where.field ?? 'events'}[${i}]` }),
  );
}

/** Whether a stored event is the same delivery as `event` (metadata compared key order aside). */
export function sameEvent(stored: StoredEvent, event: ChannelEvent): boolean {
  return (
    stored.author === event.author &&
    stored.at === event.at &&
    stored.body === event.body &&
    canonical(stored.metadata) === canonical(event.metadata ?? {})
  );
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as JsonObject)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The text a search looks in: author, then body. */
export function eventSearchText(event: Pick<StoredEvent, 'author' | 'body'>): string {
  return `${event.author}\n${event.body}`;
}

export function eventMatches(event: StoredEvent, filter: EventFilter): boolean {
  return (
    (filter.channel === undefined || event.channel === filter.channel) &&
    (filter.author === undefined || event.author === filter.author) &&
    (filter.since === undefined || event.at >= filter.since) &&
    (filter.until === undefined || event.at < filter.until)
  );
}

/** A listing's or search's size. */
export const eventLimit = searchLimit;
