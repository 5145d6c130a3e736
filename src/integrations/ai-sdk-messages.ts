import type { ModelMessage, ToolResultPart } from 'ai';
import { InputError } from '../model/errors.js';
import {
  type AssistantMessage,
  type AssistantPart,
  finishedCall,
  type ToolOutcome,
  type ToolPart,
} from '../model/index.js';
import type { JsonObject, JsonValue } from '../model/json.js';

function outcome(result: ToolResultPart): ToolOutcome {
  const out = result.output;
  switch (out.type) {
    case 'text':
      return { state: 'completed', output: out.value };
    case 'json':
    case 'content':
      return { state: 'completed', output: out.value as JsonValue };
    case 'error-text':
      return { state: 'error', error: out.value };
    case 'error-json':
      return { state: 'error', error: JSON.stringify(out.value) };
    case 'execution-denied':
      return { state: 'error', error: `execution denied${out.reason ? `: ${out.reason}` : ''}` };
  }
}

function metadata(options: unknown): JsonObject | undefined {
  return options === undefined ? undefined : (options as JsonObject);
}

/**
 * Turns the AI SDK's response messages (an assistant message, then `tool` messages with the
 * results) into condense assistant messages where each call and its result are one tool part.
 */
export function fromAiSdkResponse(messages: readonly ModelMessage[]): AssistantMessage[] {
  const out: AssistantMessage[] = [];
  const open = new Map<string, { message: AssistantMessage; index: number }>();
  messages.forEach((m, mi) => {
    if (m.role === 'assistant') {
      const parts: AssistantPart[] = [];
      const content =
        typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
      const message: AssistantMessage = { role: 'assistant', parts };
      for (const p of content) {
        if (p.type === 'text') parts.push({ type: 'text', text: p.text });
        else if (p.type === 'reasoning') {
          const providerMetadata = metadata(p.providerOptions);
          parts.push({ type: 'reasoning', text: p.text, ...(providerMetadata ? { providerMetadata } : {}) });
        } else if (p.type === 'tool-call') {
          open.set(p.toolCallId, { message, index: parts.length });
          parts.push({
            type: 'tool',
            callId: p.toolCallId,
            name: p.toolName,
            input: (p.input ?? {}) as JsonValue,
            state: 'pending',
          });
        } else if (p.type === 'tool-result') {
          fill(open, p, mi);
        }
      }
      out.push(message);
    } else if (m.role === 'tool') {
      for (const p of m.content) if (p.type === 'tool-result') fill(open, p, mi);
    } else {
      throw new InputError(`expected assistant or tool messages in a response, got role '${m.role}'`, {
        field: `messages[${mi}].role`,
      });
    }
  });
  return out;
}

function fill(
  open: Map<string, { message: AssistantMessage; index: number }>,
  p: ToolResultPart,
  mi: number,
) {
  const slot = open.get(p.toolCallId);
  if (!slot) {
    throw new InputError(`tool result for unknown call '${p.toolCallId}'`, {
      field: `messages[${mi}].content.toolCallId`,
    });
  }
  const call = slot.message.parts[slot.index] as ToolPart;
  slot.message.parts[slot.index] = finishedCall(call, outcome(p));
  open.delete(p.toolCallId);
}
