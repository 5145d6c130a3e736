import { lineOfField } from '../import/json-locate.js';
import { parseJsonLines, parseJsonText, stripBom } from '../import/json-text.js';
import { InputError } from '../model/errors.js';
import { parseWith } from '../model/validate.js';
import {
  type ChannelEvent,
  channelEventSchema,
  type EventFilter,
  type EventLedger,
  isEventLedger,
} from '../store/events.js';
import type { Store } from '../store/store.js';
import { type CommonOptions, int } from './io.js';

export type FilterFlags = CommonOptions & {
  channel?: string;
  author?: string;
  since?: string;
  until?: string;
  limit?: string;
};

export const filterOf = (o: FilterFlags): EventFilter => ({
  ...(o.channel !== undefined ? { channel: o.channel } : {}),
  ...(o.author !== undefined ? { author: o.author } : {}),
  ...(o.since !== undefined ? { since: parseTime(o.since, '--since') } : {}),
  ...(o.until !== undefined ? { until: parseTime(o.until, '--until') } : {}),
  ...(o.limit !== undefined ? { limit: int(o.limit, '--limit') } : {}),
});

export function ledgerOf(store: Store): Store & EventLedger {
  if (!isEventLedger(store)) throw new Error(`the ${store.kind} store keeps no events ledger`);
  return store;
}

/** A time given on the command line: ISO 8601, or milliseconds since 1970. */
export function parseTime(value: string, flag: string): number {
  const ms = /^\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) {
    throw new Error(
      `${flag} must be an ISO 8601 time (2026-01-29T10:00:00Z) or milliseconds since 1970, got '${value}'`,
    );
  }
  return ms;
}

/** A file's `at` may be an ISO time; the ledger keeps milliseconds. */
function withTime(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const at = (value as { at?: unknown }).at;
  if (typeof at !== 'string') return value;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? value : { ...value, at: ms };
}

/**
 * Events from a file: a JSON array of events, or JSON Lines with one event per line. Every event
 * is checked before any is recorded; an error names the file, the line and the field.
 */
export function eventsFromText(text: string, file: string): ChannelEvent[] {
  if (stripBom(text).trimStart().startsWith('[')) {
    const list = parseJsonText(text, file);
    if (!Array.isArray(list)) throw new InputError('expected a JSON array of events', { file, line: 1 });
    return list.map((value, i) =>
      parseWith(channelEventSchema, withTime(value), {
        file,
        line: lineOfField(text, `[${i}]`),
        field: `[${i}]`,
      }),
    );
  }
  return parseJsonLines(text, file).map(({ line, value }) =>
    parseWith(channelEventSchema, withTime(value), { file, line }),
  );
}

export interface EventFlags {
  channel?: string;
  externalId?: string;
  author?: string;
  at?: string;
  body?: string;
  metadata?: string;
}

/** One event from flags; each missing flag is named. */
export function eventFromFlags(flags: EventFlags): ChannelEvent {
  const missing = (['channel', 'externalId', 'author', 'body'] as const).filter(
    (k) => flags[k] === undefined,
  );
  if (missing.length > 0) {
    const names = missing.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new Error(`events add needs --file, or ${names.join(', ')} (and optionally --at, --metadata)`);
  }
  let metadata: unknown;
  if (flags.metadata !== undefined) {
    try {
      metadata = JSON.parse(flags.metadata);
    } catch {
      throw new InputError('--metadata is not valid JSON', { field: 'metadata' });
    }
  }
  const event = {
    channel: flags.channel,
    externalId: flags.externalId,
    author: flags.author,
    at: flags.at === undefined ? Date.now() : parseTime(flags.at, '--at'),
    body: flags.body,
    ...(metadata === undefined ? {} : { metadata }),
  };
  return parseWith(channelEventSchema, event);
}
