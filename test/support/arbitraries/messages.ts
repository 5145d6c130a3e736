/** Message and history arbitraries built from the part arbitraries. */
import fc from 'fast-check';
import type { JsonObject } from '../../../src/model/json.js';
import type { AssistantMessage, Message, SystemMessage, UserMessage } from '../../../src/model/message.js';
import type { AssistantPart, UserPart } from '../../../src/model/parts.js';
import { compactionMarkerPartArb, filePartArb, reasoningPartArb, textPartArb, toolPartArb } from './parts.js';

const metadataArb = fc.option(
  fc.oneof(
    fc.constant<JsonObject>({ synthetic: true }),
    fc.constant<JsonObject>({ finish: 'stop' }),
    fc.constant<JsonObject>({ summary: true }),
  ),
  { nil: undefined },
);
const withMetadata = <M extends Message>(m: M, metadata: JsonObject | undefined): M =>
  metadata === undefined ? m : { ...m, metadata };

export const systemMessageArb: fc.Arbitrary<SystemMessage> = fc
  .array(textPartArb, { minLength: 1, maxLength: 2 })
  .map((parts) => ({ role: 'system', parts }));

export const userMessageArb: fc.Arbitrary<UserMessage> = fc
  .tuple(
    fc.array(
      fc.oneof<fc.MaybeWeightedArbitrary<UserPart>[]>(
        { weight: 6, arbitrary: textPartArb },
        { weight: 2, arbitrary: filePartArb },
        { weight: 1, arbitrary: compactionMarkerPartArb },
      ),
      { maxLength: 3 },
    ),
    metadataArb,
  )
  .map(([parts, metadata]) => withMetadata({ role: 'user', parts }, metadata));

/**
 * Call ids made unique within the message (the model's rule) by suffixing repeats; ids still
 * repeat across messages, as tau-bench's do.
 */
export function uniqueCallIdsWithin(parts: AssistantPart[]): AssistantPart[] {
  const used = new Set<string>();
  return parts.map((part) => {
    if (part.type !== 'tool') return part;
    let callId = part.callId;
    for (let n = 2; used.has(callId); n++) callId = `${part.callId}~${n}`;
    used.add(callId);
    return callId === part.callId ? part : { ...part, callId };
  });
}

/** Assistant parts as generated, ids possibly repeated within the message (invalid input). */
export const assistantPartsArb: fc.Arbitrary<AssistantPart[]> = fc.array(
  fc.oneof<fc.MaybeWeightedArbitrary<AssistantPart>[]>(
    { weight: 4, arbitrary: textPartArb },
    { weight: 2, arbitrary: reasoningPartArb },
    { weight: 1, arbitrary: filePartArb },
    { weight: 4, arbitrary: toolPartArb },
  ),
  { maxLength: 5 },
);

export const assistantMessageArb: fc.Arbitrary<AssistantMessage> = fc
  .tuple(
    assistantPartsArb.map(uniqueCallIdsWithin),
    fc.option(
      fc.oneof(
        fc.constant<JsonObject>({ finish: 'tool-calls' }),
        fc.constant<JsonObject>({ error: 'APIError: overloaded' }),
        fc.constant<JsonObject>({ summary: true }),
      ),
      { nil: undefined },
    ),
  )
  .map(([parts, metadata]) => withMetadata({ role: 'assistant', parts }, metadata));

/** One message of any role; assistant and user dominate as in real sessions. */
export const messageArb: fc.Arbitrary<Message> = fc.oneof(
  { weight: 4, arbitrary: userMessageArb },
  { weight: 6, arbitrary: assistantMessageArb },
  { weight: 1, arbitrary: systemMessageArb },
);

export interface HistoryOptions {
  maxLength?: number;
  /** Start with a system message, as agent logs often do. Default: sometimes. */
  leadingSystem?: boolean;
}

/** A random history: any order of roles, consecutive same-role turns included. */
export function historyArb(opts: HistoryOptions = {}): fc.Arbitrary<Message[]> {
  const body = fc.array(messageArb, { maxLength: opts.maxLength ?? 12 });
  const lead: fc.Arbitrary<SystemMessage | undefined> =
    opts.leadingSystem === undefined
      ? fc.option(systemMessageArb, { nil: undefined })
      : opts.leadingSystem
        ? systemMessageArb
        : fc.constant(undefined);
  return fc.tuple(lead, body).map(([sys, rest]) => (sys === undefined ? rest : [sys, ...rest]));
}

/**
 * A history whose calls all take their ids from two values, so nearly every id repeats across
 * messages (what tau-bench does at its worst); within a message they stay unique.
 */
export function repeatedIdsHistoryArb(opts: HistoryOptions = {}): fc.Arbitrary<Message[]> {
  return fc
    .tuple(historyArb(opts), fc.array(fc.constantFrom('call_1', 'call_2'), { minLength: 60, maxLength: 60 }))
    .map(([history, ids]) => {
      let k = 0;
      return history.map((m): Message => {
        if (m.role !== 'assistant') return m;
        const parts = m.parts.map((p) => (p.type === 'tool' ? { ...p, callId: ids[k++ % ids.length]! } : p));
        return { ...m, parts: uniqueCallIdsWithin(parts) };
      });
    });
}
