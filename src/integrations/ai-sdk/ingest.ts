import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { LateToolResult } from '../../model/ai-sdk/calls.js';
import type { JsonValue } from '../../model/json.js';
import { type AssistantMessage, type Message, orphanResultMessage } from '../../model/message.js';
import { finishedCall, type Part, type ToolOutcome, type ToolPart } from '../../model/parts.js';
import type { SessionHandle } from '../../session/handle.js';
import type { ToolResult } from '../../session/steps.js';
import { NoWaitingCallError } from '../../session/tool-results.js';
import { echoSignature, type PromptCursor, readCursor } from './cursor.js';
import { type ConversationMessage, digestsOf } from './digests.js';
import { assistantFromV3, fromV3Assistant, toolResultsOf, userFromV3 } from './prompt-in.js';

export type IngestOutcome =
  | {
      status: 'ingested';
      /** The prompt's system messages, joined: the session's system prompt for this call. */
      system?: string;
      /** Where the session stands in the app's messages once the call's response is recorded. */
      cursor: PromptCursor;
      /** The cursor as stored when ingest ended (null: none): the response is recorded only over it. */
      stored: JsonValue;
    }
  /** The very messages a recorded answer replied to, without it (a retry): that answer. */
  | { status: 'replay'; message: AssistantMessage }
  | { status: 'rewritten'; reason: string };

/** A prompt message as a condense message, and the results it carries for calls made before it. */
function converted(m: ConversationMessage, index: number): { message?: Message; results: LateToolResult[] } {
  switch (m.role) {
    case 'user':
      return { message: userFromV3(m), results: [] };
    case 'assistant':
      return fromV3Assistant(m, index);
    case 'tool':
      return { results: toolResultsOf(m, index) };
  }
}

/** Another instance of the middleware (another app server) moved the cursor during a write. */
const MOVED = Symbol('moved');

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
export async function ingest(
  session: SessionHandle,
  prompt: LanguageModelV3Prompt,
  opts: { regenerate?: boolean } = {},
): Promise<IngestOutcome> {
  // Behind a load balancer another instance may have taken messages since this one last looked:
  // read the session row first, and start over whenever a write finds the cursor moved.
  for (;;) {
    await session.log.refresh();
    const outcome = await ingestOnce(session, prompt, opts.regenerate ?? false);
    if (outcome !== MOVED) return outcome;
  }
}

async function ingestOnce(
  session: SessionHandle,
  prompt: LanguageModelV3Prompt,
  regenerate: boolean,
): Promise<IngestOutcome | typeof MOVED> {
  let stored: JsonValue = session.log.record.state.cursor ?? null;
  const cursor = readCursor(stored ?? undefined, session.id);
  const digests = digestsOf(session);
  const at = (n: number): PromptCursor => ({ messages: n, hash: digests.at(n) });
  // The prompt split as the last one was, unless its known prefix no longer matches: then exactly.
  let { system, conversation } = digests.split(prompt, cursor.messages, true);
  let known =
    cursor.messages <= conversation.length && digests.follow(conversation, cursor.messages, cursor.hash);
  if (!known) {
    ({ system, conversation } = digests.split(prompt, cursor.messages, false));
    known =
      cursor.messages <= conversation.length && digests.follow(conversation, cursor.messages, cursor.hash);
  }
  if (!known) return { status: 'rewritten', reason: 'an earlier message was changed or removed' };
  let i = cursor.messages;
  if (cursor.echo !== undefined) {
    const next = conversation.at(i);
    const answer = next === undefined && !regenerate ? recordedAnswer(session, cursor.echo) : null;
    if (answer) return { status: 'replay', message: answer };
    if (next?.role !== 'assistant' || echoSignature(assistantFromV3(next)) !== cursor.echo) {
      return { status: 'rewritten', reason: 'the response recorded last is not in the messages' };
    }
    i++;
  }
  const batch = new Batch(session.config.now);
  /** Appends the batch over the cursor this ingest read; false if another instance wrote first. */
  const flush = async (end: number) => {
    if (batch.messages.length === 0) return true;
    const next = at(end);
    const entries = await session.append(batch.take(), { cursor: next, expectCursor: stored });
    if (entries.length === 0) return false;
    stored = next;
    return true;
  };
  let kept = 0;
  for (; i < conversation.length; i++) {
    const { message, results } = converted(conversation.at(i)!, i);
    // Results for calls still in the batch complete them there: call and result go in one write.
    const rest = results.filter((late) => !batch.settle(late));
    if (rest.length > 0) {
      // The calls these results answer may have been appended before: the batch goes first.
      if (!(await flush(i))) return MOVED;
      // A result that answers no call is kept where it came, as the import keeps one.
      for (const orphan of await completeCalls(session, rest)) {
        batch.push(orphanResultMessage(orphan.callId, orphan.result, 'the session'));
        kept++;
      }
    }
    if (message && message.parts.length > 0) batch.push(message);
  }
  if (!(await flush(conversation.length))) return MOVED;
  reportUnmatched(session, kept, 'kept as user messages marked orphanResult');
  return {
    status: 'ingested',
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    cursor: at(conversation.length),
    stored,
  };
}

/**
 * Messages waiting to be appended, with their calls still waiting for a result by id, so that a
 * result arriving in the same prompt completes its call before the write, as
 * `session.recordToolResult` would complete it after.
 */
class Batch {
  messages: Message[] = [];
  private waiting = new Map<string, { parts: Part[]; index: number }[]>();

  constructor(private readonly now: () => number) {}

  push(message: Message): void {
    this.messages.push(message);
    message.parts.forEach((p, index) => {
      if (p.type !== 'tool' || (p.state !== 'pending' && p.state !== 'running')) return;
      const slots = this.waiting.get(p.callId) ?? [];
      slots.push({ parts: message.parts, index });
      this.waiting.set(p.callId, slots);
    });
  }

  /** Completes the waiting call of the newest message with this id; false if none waits here. */
  settle({ callId, result }: LateToolResult): boolean {
    const slots = this.waiting.get(callId);
    if (slots === undefined || slots.length === 0) return false;
    // As recordToolResult finds it: the newest message holding the call, its first such part.
    const newest = slots.at(-1)!.parts;
    const at = slots.findIndex((s) => s.parts === newest);
    const { parts, index } = slots.splice(at, 1)[0]!;
    parts[index] = finishedCall(parts[index] as ToolPart, outcomeOf(result), this.now());
    return true;
  }

  take(): Message[] {
    const taken = this.messages;
    this.messages = [];
    this.waiting.clear();
    return taken;
  }
}

function outcomeOf(result: ToolResult): ToolOutcome {
  return result.error === undefined
    ? {
        state: 'completed',
        output: result.output,
        ...(result.attachments ? { attachments: result.attachments } : {}),
      }
    : { state: 'error', error: result.error };
}

/** The recorded answer with this echo signature: the newest assistant message of the window. */
export function recordedAnswer(session: SessionHandle, echo: string): AssistantMessage | null {
  const active = session.log.active;
  for (let i = active.length - 1; i >= 0; i--) {
    const e = active[i]!;
    if (e.kind === 'message' && e.message.role === 'assistant')
      return echoSignature(e.message) === echo ? e.message : null;
  }
  return null;
}

/**
 * Completes the session's pending calls with results for them; a result whose call is already
 * finished is skipped (a retried call, a restart). Returns those that answer no call.
 */
export async function completeCalls(
  session: SessionHandle,
  results: readonly LateToolResult[],
): Promise<LateToolResult[]> {
  const unmatched: LateToolResult[] = [];
  for (const late of results) {
    const { callId, result } = late;
    const state = callState(session, callId);
    if (state === 'pending' || state === 'running') {
      try {
        await session.recordToolResult(callId, result);
      } catch (error) {
        // Another instance completed it meanwhile: the write saw the call finished.
        if (!(error instanceof NoWaitingCallError) || callState(session, callId) === undefined) throw error;
      }
    } else if (state === undefined) unmatched.push(late);
  }
  return unmatched;
}

export function reportUnmatched(session: SessionHandle, unmatched: number, fate = 'not stored'): void {
  if (unmatched > 0) {
    session.events.emit('warning', {
      message: `${unmatched} tool result(s) answer no call in the session's view; ${fate}`,
      error: undefined,
    });
  }
}

/**
 * The state of a call in the session's view (the window is bounded): 'pending' while any call with
 * that id still waits, since a provider may reuse ids. Newest first: a result mostly answers a
 * call of the last few steps, found without a pass over the window.
 */
function callState(session: SessionHandle, callId: string): string | undefined {
  let found: string | undefined;
  const active = session.log.active;
  for (let i = active.length - 1; i >= 0; i--) {
    const entry = active[i]!;
    if (entry.kind !== 'message') continue;
    const parts = entry.message.parts;
    for (let j = parts.length - 1; j >= 0; j--) {
      const p = parts[j]!;
      if (p.type !== 'tool' || p.callId !== callId) continue;
      if (p.state === 'pending' || p.state === 'running') return p.state;
      found ??= p.state;
    }
  }
  return found;
}
