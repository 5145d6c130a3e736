import type { MessageEntry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import type { JsonObject } from '../model/json.js';
import type { Message, UserMessage } from '../model/message.js';
import { type ChannelEvent, isEventLedger, type StoredEvent } from '../store/events.js';
import type { Store } from '../store/store.js';

/** What a quoting message's `metadata.events` holds for each event: enough to find it again. */
export type EventRef = { id: string; channel: string; externalId: string };

/** The default quote: `[channel] author (ISO time): body`. */
export function quoteLine(event: StoredEvent): string {
  return `[${event.channel}] ${event.author} (${new Date(event.at).toISOString()}): ${event.body}`;
}

/**
 * The user message quoting ledger events to the agent: one text part per event, and references
 * in `metadata.events` so that a compacted or pruned session still points at the ledger's copy.
 */
export function quoteMessage(events: readonly StoredEvent[], format = quoteLine): UserMessage {
  const refs: EventRef[] = events.map(({ id, channel, externalId }) => ({ id, channel, externalId }));
  return {
    role: 'user',
    parts: events.map((e) => ({ type: 'text', text: format(e) })),
    metadata: { events: refs },
  };
}

/** The ledger events a message quotes (empty for any other message). */
export function quotedEvents(message: Message): EventRef[] {
  const refs = message.metadata?.events;
  if (!Array.isArray(refs)) return [];
  return refs.filter(
    (r): r is JsonObject & EventRef =>
      r !== null && typeof r === 'object' && !Array.isArray(r) && typeof r.id === 'string',
  );
}

/**
 * Records events in the store's ledger, then appends the message quoting them. Recorded first: if
 * the append fails they stay in the ledger (which keeps every event anyway), and quoting again
 * records nothing twice.
 */
export async function recordAndQuote(
  store: Store,
  events: ChannelEvent | readonly ChannelEvent[],
  append: (message: Message) => Promise<MessageEntry[]>,
  format = quoteLine,
): Promise<{ events: StoredEvent[]; entry: MessageEntry }> {
  if (!isEventLedger(store)) {
    throw new Error(`the ${store.kind} store keeps no events ledger (the memory and SQLite stores do)`);
  }
  const list = Array.isArray(events) ? events : [events as ChannelEvent];
  if (list.length === 0) throw new InputError('no events to quote', { field: 'events' });
  const stored = await store.addEvents(list);
  const [entry] = await append(quoteMessage(stored, format));
  return { events: stored, entry: entry! };
}
