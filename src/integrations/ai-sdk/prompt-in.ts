import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { type LateToolResult, OpenCalls, resultOf } from '../../model/ai-sdk/calls.js';
import { assistantPartOf, fileOf } from '../../model/ai-sdk/parts.js';
import { toolOutcome } from '../../model/ai-sdk/tool-output.js';
import type { AssistantMessage, UserMessage } from '../../model/message.js';
import type { AssistantPart } from '../../model/parts.js';

/**
 * Provider-level (V3) prompt messages → condense messages. A V3 prompt is what the AI SDK hands a
 * model after its own conversion, so every shape here is already normalized (tool-call `input` is
 * an object, results are typed outputs, files are bytes, base64 or a URL).
 */

export type V3Message = LanguageModelV3Message;
type V3Assistant = Extract<V3Message, { role: 'assistant' }>;
type V3User = Extract<V3Message, { role: 'user' }>;
type V3Tool = Extract<V3Message, { role: 'tool' }>;

export function userFromV3(message: V3User): UserMessage {
  return {
    role: 'user',
    parts: message.content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : fileOf(p))),
  };
}

/**
 * An assistant message with its tool calls as `pending` tool parts; a result inside the message
 * (a provider-executed tool) completes its call there, so call and result stay one part. A result
 * whose call an earlier message made (a deferred provider result) is returned apart.
 */
export function fromV3Assistant(
  message: V3Assistant,
  index = 0,
): { message: AssistantMessage; results: LateToolResult[] } {
  const calls = new OpenCalls();
  const parts: AssistantPart[] = [];
  for (const p of message.content) {
    if (p.type === 'tool-result') calls.settle(p.toolCallId, toolOutcome(p.output), index);
    else calls.add(parts, assistantPartOf(p));
  }
  return { message: { role: 'assistant', parts }, results: calls.late };
}

export function assistantFromV3(message: V3Assistant): AssistantMessage {
  return fromV3Assistant(message).message;
}

/** A tool message's results, each completing a call the session holds. */
export function toolResultsOf(message: V3Tool, index = 0): LateToolResult[] {
  const none = new OpenCalls();
  for (const p of message.content)
    if (p.type === 'tool-result') none.settle(p.toolCallId, toolOutcome(p.output), index);
  return none.late;
}

/** A tool-result part as `session.recordToolResult` takes it. */
export function toolResultOf(part: Extract<V3Tool['content'][number], { type: 'tool-result' }>) {
  return resultOf(toolOutcome(part.output));
}
