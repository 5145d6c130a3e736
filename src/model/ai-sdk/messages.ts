import type { ModelMessage, UserContent } from 'ai';
import { InputError } from '../errors.js';
import type { AssistantMessage, Message } from '../message.js';
import type { AssistantPart, UserPart } from '../parts.js';
import { type LateToolResult, OpenCalls } from './calls.js';
import { assistantPartOf, fileOf } from './parts.js';
import { toolOutcome } from './tool-output.js';

export interface ConvertedMessages<M extends Message = Message> {
  messages: M[];
  /** Results whose call is not among the messages converted: they complete a call the session holds. */
  results: LateToolResult[];
}

/** A condense message has `parts`; an AI SDK message has `content`. */
export function isModelMessage(value: unknown): value is ModelMessage {
  return typeof value === 'object' && value !== null && 'content' in value && !('parts' in value);
}

function userParts(content: UserContent, field: string): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((p, i) => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    const f = `${field}[${i}]`;
    return p.type === 'image'
      ? fileOf({ data: p.image, mediaType: p.mediaType }, 'image/*', f)
      : fileOf(p, undefined, f);
  });
}

/**
 * AI SDK messages as condense messages. A tool result completes its call in the assistant message
 * that made it, wherever that message is in the list, so call and result become one part; a
 * result whose call is not in the list is returned apart, to complete a call the session holds.
 */
export function fromModelMessages(list: readonly ModelMessage[], field = 'messages'): ConvertedMessages {
  const calls = new OpenCalls();
  const messages: Message[] = [];
  list.forEach((m, i) => {
    switch (m.role) {
      case 'system':
        messages.push({ role: 'system', parts: [{ type: 'text', text: m.content }] });
        break;
      case 'user':
        messages.push({ role: 'user', parts: userParts(m.content, `${field}[${i}].content`) });
        break;
      case 'assistant': {
        const parts: AssistantPart[] = [];
        const content =
          typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
        for (const p of content) {
          // A provider-executed tool's result sits in the assistant message, after its call.
          if (p.type === 'tool-result') calls.settle(p.toolCallId, toolOutcome(p.output), i);
          // Approval requests are the SDK's own bookkeeping: its conversion drops them too.
          else if (p.type !== 'tool-approval-request') calls.add(parts, assistantPartOf(p));
        }
        messages.push({ role: 'assistant', parts });
        break;
      }
      case 'tool':
        for (const p of m.content)
          if (p.type === 'tool-result') calls.settle(p.toolCallId, toolOutcome(p.output), i);
        break;
    }
  });
  return { messages, results: calls.late };
}

/** A response's messages (assistant and tool messages only) as condense assistant messages. */
export function responseMessages(list: readonly ModelMessage[]): ConvertedMessages<AssistantMessage> {
  list.forEach((m, i) => {
    if (m.role !== 'assistant' && m.role !== 'tool') {
      throw new InputError(`expected assistant or tool messages in a response, got role '${m.role}'`, {
        field: `messages[${i}].role`,
      });
    }
  });
  return fromModelMessages(list) as ConvertedMessages<AssistantMessage>;
}

/**
 * Turns the AI SDK's response messages (an assistant message, then `tool` messages with the
 * results) into condense assistant messages where each call and its result are one tool part.
 * A result for a call of an earlier response is refused here: `session.recordStep({ response })`
 * takes it, completing the call the session holds.
 */
export function fromAiSdkResponse(list: readonly ModelMessage[]): AssistantMessage[] {
  const { messages, results } = responseMessages(list);
  const late = results[0];
  if (late) {
    throw new InputError(`tool result for unknown call '${late.callId}'`, {
      field: `messages[${late.index}].content.toolCallId`,
    });
  }
  return messages;
}
