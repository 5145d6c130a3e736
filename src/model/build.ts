import { randomUUID } from 'node:crypto';
import type { CompactionEntry, MessageEntry, Pivot } from './entry.js';
import type { Message } from './message.js';
import type { Part } from './parts.js';

/**
 * The counts an entry stores, as the token layer's `Estimator` provides them: named here so that
 * the data model needs nothing from the layers built on it.
 */
export interface EntryCounter {
  text(text: string): number;
  part(part: Part): number;
  message(message: Message, partTokens?: readonly number[]): number;
}

export interface EntryPlace {
  sessionId: string;
  seq: number;
  parentId: string | null;
  id?: string;
  createdAt?: number;
}

/** A message entry with its token estimates computed once, here, and stored with it. */
export function buildMessageEntry(
  message: Message,
  place: EntryPlace,
  estimator: EntryCounter,
): MessageEntry {
  const partTokens = message.parts.map((p) => estimator.part(p));
  return {
    kind: 'message',
    id: place.id ?? randomUUID(),
    sessionId: place.sessionId,
    parentId: place.parentId,
    seq: place.seq,
    createdAt: place.createdAt ?? Date.now(),
    message,
    partTokens,
    // Given the part figures, the message total tokenizes only the calls' names and inputs.
    tokens: estimator.message(message, partTokens),
  };
}

/** `tokens`, when given, is the summary's count as a policy makes it, instead of the estimate. */
export function buildCompactionEntry(
  pivot: Pivot,
  place: EntryPlace,
  estimator: EntryCounter,
  tokens?: number,
): CompactionEntry {
  return {
    kind: 'compaction',
    id: place.id ?? randomUUID(),
    sessionId: place.sessionId,
    parentId: place.parentId,
    seq: place.seq,
    createdAt: place.createdAt ?? Date.now(),
    pivot,
    partTokens: [],
    // As a message of its own, framed as the estimator frames one (Pegasus's len / 3.5: no framing).
    tokens: tokens ?? estimator.message({ role: 'user', parts: [{ type: 'text', text: pivot.summary }] }),
  };
}

/** Entries for a list of messages, chained by parentId: the shape a session log has. */
export function buildLog(
  messages: Message[],
  estimator: EntryCounter,
  sessionId = 'test',
  startSeq = 0,
): MessageEntry[] {
  const out: MessageEntry[] = [];
  messages.forEach((m, i) => {
    const parentId = out.at(-1)?.id ?? null;
    out.push(
      buildMessageEntry(m, { sessionId, seq: startSeq + i, parentId, id: `e${startSeq + i}` }, estimator),
    );
  });
  return out;
}
