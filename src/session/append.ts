import type { ModelMessage } from 'ai';
import type { LateToolResult } from '../model/ai-sdk/calls.js';
import { fromModelMessages, isModelMessage } from '../model/ai-sdk/messages.js';
import type { Entry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import type { Message } from '../model/message.js';
import { parseMessage } from '../model/validate.js';
import type { ToolResult } from './steps.js';

/** What `append` takes: condense messages, AI SDK `ModelMessage`s, or a list mixing both. */
export type AppendInput = Message | ModelMessage;

export interface AppendPlan {
  messages: Message[];
  /** Results for calls the session already holds as pending or running. */
  results: { callId: string; result: ToolResult }[];
}

/**
 * Checks that every result whose call was not in the same input answers a call the session still
 * waits for (each call once), before anything is written.
 */
export function waitingResults(late: readonly LateToolResult[], active: Entry[]): AppendPlan['results'] {
  if (late.length === 0) return [];
  const waiting = new Set<string>();
  for (const e of active) {
    if (e.kind !== 'message') continue;
    for (const p of e.message.parts)
      if (p.type === 'tool' && (p.state === 'pending' || p.state === 'running')) waiting.add(p.callId);
  }
  return late.map(({ callId, result }) => {
    if (!waiting.delete(callId))
      throw new InputError(`tool result for '${callId}', which is no call the session is waiting for`, {
        field: 'toolCallId',
      });
    return { callId, result };
  });
}

/**
 * Validates what `append` was given, before anything is written: every message against the schema,
 * and every AI SDK tool result whose call is not in the same input against the calls the session
 * still waits for, so an append is written whole or not at all.
 */
export function planAppend(input: AppendInput | readonly AppendInput[], active: Entry[]): AppendPlan {
  const list: readonly unknown[] = Array.isArray(input) ? input : [input];
  const field = (i: number) => (Array.isArray(input) ? `[${i}]` : undefined);
  const messages: Message[] = [];
  const late: LateToolResult[] = [];
  let i = 0;
  while (i < list.length) {
    if (!isModelMessage(list[i])) {
      messages.push(parseMessage(list[i], { field: field(i) }));
      i++;
      continue;
    }
    // A run of AI SDK messages converts together: a call and its result become one part.
    const start = i;
    while (i < list.length && isModelMessage(list[i])) i++;
    const converted = fromModelMessages(list.slice(start, i) as ModelMessage[], field(start) ?? 'message');
    converted.messages.forEach((m, k) => {
      messages.push(parseMessage(m, { field: field(start + k) }));
    });
    for (const r of converted.results) late.push(r);
  }
  return { messages, results: waitingResults(late, active) };
}

/** Whether the input holds an AI SDK tool message (results that may answer calls appended earlier). */
export function hasToolMessage(input: AppendInput | readonly AppendInput[]): boolean {
  const list: readonly unknown[] = Array.isArray(input) ? input : [input];
  return list.some((m) => isModelMessage(m) && m.role === 'tool');
}
