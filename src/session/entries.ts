import { isDeepStrictEqual } from 'node:util';
import { buildMessageEntry } from '../model/build.js';
import type { Entry, MessageEntry } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import type { SessionRecord } from '../model/session.js';
import type { Write } from './log.js';
import type { ResolvedSession } from './resolve.js';
import { afterAppend } from './state.js';

/** Numbers new messages after the head: seq, parent link, token estimates. */
export function numbered(
  messages: Message[],
  record: SessionRecord,
  active: Entry[],
  config: ResolvedSession,
): MessageEntry[] {
  let parentId = record.headId ?? active.at(-1)?.id ?? null;
  const now = config.now();
  return messages.map((message, i) => {
    const entry = buildMessageEntry(
      message,
      { sessionId: record.id, seq: record.nextSeq + i, parentId, createdAt: now },
      config.estimator,
    );
    parentId = entry.id;
    return entry;
  });
}

/** The write that appends `messages` as they are. */
export function appendWrite(messages: Message[], config: ResolvedSession) {
  return (record: SessionRecord, active: Entry[]): Write<MessageEntry> => {
    const entries = numbered(messages, record, active, config);
    return { append: entries, state: afterAppend(record.state, entries) };
  };
}

export function toList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * The same write, also setting the integration cursor (when given) in that one commit. With
 * `expected`, the write is dropped (null) unless the stored cursor is still that one (null: none
 * yet): checked inside the write, so that of several integration instances taking the same
 * messages at once, one writes them and the others see it was done.
 */
export function withCursor<E extends Entry>(
  compute: (record: SessionRecord, active: Entry[]) => Write<E>,
  cursor: JsonValue | undefined,
  expected?: JsonValue,
) {
  if (cursor === undefined && expected === undefined) return compute;
  return (record: SessionRecord, active: Entry[]): Write<E> | null => {
    if (expected !== undefined && !isDeepStrictEqual(record.state.cursor ?? null, expected)) return null;
    const write = compute(record, active);
    return cursor === undefined ? write : { ...write, state: { ...write.state, cursor } };
  };
}
