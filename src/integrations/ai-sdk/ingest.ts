import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { Message } from '../../model/message.js';
import type { Session } from '../../session/session.js';
import type { LateToolResult } from './calls.js';
import { echoSignature, hashChain, type PromptCursor, readCursor } from './cursor.js';
import { assistantFromV3, fromV3Assistant, toolResultsOf, userFromV3, type V3Message } from './prompt-in.js';

export type IngestOutcome =
  | {
      status: 'ingested';
      /** The prompt's system messages, joined: the session's system prompt for this call. */
      system?: string;
      /** Where the session stands in the app's messages once the call's response is recorded. */
      cursor: PromptCursor;
    }
  | { status: 'rewritten'; reason: string };

type Conversation = Exclude<V3Message, { role: 'system' }>;

/** A prompt message as a condense message, and the results it carries for calls made before it. */
function converted(m: Conversation, index: number): { message?: Message; results: LateToolResult[] } {
  switch (m.role) {
    case 'user':
      return { message: userFromV3(m), results: [] };
    case 'assistant':
      return fromV3Assistant(m, index);
    case 'tool':
      return { results: toolResultsOf(m, index) };
  }
}

/**
 * Takes what is new in an incoming prompt into the session, and only that:
 * - the first `cursor.messages` messages must be the ones taken before (hash chain), followed by
 *   the response recorded last (its echo): they are skipped;
 * - user messages, and assistant messages the middleware did not record, are appended (with the
 *   cursor, in the same write, so a restart never appends them twice);
 * - tool results complete their pending call (a call and its result are one part); results of
 *   calls already completed are skipped.
 * Anything else — an earlier message changed or removed, the recorded response missing — is a
 * rewrite of the app's history: nothing is written and the caller decides (it starts a branch).
 */
export async function ingest(session: Session, prompt: LanguageModelV3Prompt): Promise<IngestOutcome> {
  const system = prompt.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  const conversation = prompt.filter((m): m is Conversation => m.role !== 'system');
  const cursor = readCursor(session.log.record.state.cursor, session.id);
  const hashes = hashChain(conversation, cursor.messages);
  const at = (n: number): PromptCursor => ({ messages: n, hash: hashes[n]! });
  if (cursor.messages > conversation.length || hashes[cursor.messages] !== cursor.hash) {
    return { status: 'rewritten', reason: 'an earlier message was changed or removed' };
  }
  let i = cursor.messages;
  if (cursor.echo !== undefined) {
    const next = conversation[i];
    if (next?.role !== 'assistant' || echoSignature(assistantFromV3(next)) !== cursor.echo) {
      return { status: 'rewritten', reason: 'the response recorded last is not in the messages' };
    }
    i++;
  }
  let batch: Message[] = [];
  const flush = async (end: number) => {
    if (batch.length > 0) await session.append(batch, { cursor: at(end) });
    batch = [];
  };
  let unmatched = 0;
  for (; i < conversation.length; i++) {
    const { message, results } = converted(conversation[i]!, i);
    if (results.length > 0) {
      // The calls these results answer may be in the batch: it goes first.
      await flush(i);
      unmatched += await completeCalls(session, results);
    }
    if (message && message.parts.length > 0) batch.push(message);
  }
  await flush(conversation.length);
  reportUnmatched(session, unmatched);
  return {
    status: 'ingested',
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    cursor: at(conversation.length),
  };
}

/**
 * Completes the session's pending calls with results for them; a result whose call is already
 * finished is skipped (a retried call, a restart). Returns how many answer no call.
 */
export async function completeCalls(session: Session, results: readonly LateToolResult[]): Promise<number> {
  let unmatched = 0;
  for (const { callId, result } of results) {
    const state = callState(session, callId);
    if (state === 'pending' || state === 'running') await session.recordToolResult(callId, result);
    else if (state === undefined) unmatched++;
  }
  return unmatched;
}

export function reportUnmatched(session: Session, unmatched: number): void {
  if (unmatched > 0) {
    session.events.emit('warning', {
      message: `${unmatched} tool result(s) answer no call in the session's view; not stored`,
      error: undefined,
    });
  }
}

/**
 * The state of a call in the session's view (the window is bounded): 'pending' while any call with
 * that id still waits, since a provider may reuse ids.
 */
function callState(session: Session, callId: string): string | undefined {
  let found: string | undefined;
  for (const entry of session.log.active) {
    if (entry.kind !== 'message') continue;
    for (const p of entry.message.parts) {
      if (p.type !== 'tool' || p.callId !== callId) continue;
      if (p.state === 'pending' || p.state === 'running') return p.state;
      found = p.state;
    }
  }
  return found;
}
