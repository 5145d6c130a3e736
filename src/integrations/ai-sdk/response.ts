import type { LanguageModelV3Content, LanguageModelV3FinishReason } from '@ai-sdk/provider';
import { type LateToolResult, OpenCalls } from '../../model/ai-sdk/calls.js';
import { assistantPartOf, callOf } from '../../model/ai-sdk/parts.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { AssistantMessage } from '../../model/message.js';
import type { AssistantPart, ToolOutcome } from '../../model/parts.js';

/** A model's tool-call input is a JSON string; what is not JSON is kept as the string it was. */
function parseInput(input: string): JsonValue {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    return input;
  }
}

/** What a response holds that condense keeps outside its parts (the SDK drops it from the next prompt). */
function extras(content: LanguageModelV3Content[]): JsonObject {
  const sources: JsonValue[] = [];
  let approvals = 0;
  for (const p of content) {
    if (p.type === 'source') {
      sources.push(
        p.sourceType === 'url'
          ? { url: p.url, ...(p.title ? { title: p.title } : {}) }
          : { title: p.title, mediaType: p.mediaType },
      );
    } else if (p.type === 'tool-approval-request') approvals++;
  }
  return {
    ...(sources.length > 0 ? { sources } : {}),
    ...(approvals > 0 ? { toolApprovalRequests: approvals } : {}),
  };
}

/** A provider-executed tool's raw result (a response carries no typed output). */
function outcomeOf(p: Extract<LanguageModelV3Content, { type: 'tool-result' }>): ToolOutcome {
  if (!p.isError) return { state: 'completed', output: p.result as JsonValue };
  return { state: 'error', error: typeof p.result === 'string' ? p.result : JSON.stringify(p.result) };
}

/**
 * A model response (generate content, or what a stream delivered) → one condense assistant
 * message: client tool calls as `pending` parts (their results arrive with the next prompt), a
 * provider-executed call completed by its result in place; a result whose call an earlier
 * response made (a deferred provider result) is returned apart. The message is null when there
 * is nothing to keep (the SDK then adds no assistant message to the conversation either).
 */
export function fromResponse(
  content: LanguageModelV3Content[],
  finishReason?: LanguageModelV3FinishReason,
): { message: AssistantMessage | null; results: LateToolResult[] } {
  const calls = new OpenCalls();
  const parts: AssistantPart[] = [];
  for (const p of content) {
    switch (p.type) {
      // The SDK drops empty texts from the next prompt.
      case 'text':
        if (p.text !== '') parts.push(assistantPartOf(p));
        break;
      case 'reasoning':
        parts.push(assistantPartOf({ ...p, providerOptions: p.providerMetadata }));
        break;
      case 'file':
        parts.push(assistantPartOf(p));
        break;
      case 'tool-call':
        calls.add(parts, callOf({ ...p, providerOptions: p.providerMetadata }, parseInput(p.input)));
        break;
      case 'tool-result':
        calls.settle(p.toolCallId, outcomeOf(p), 0);
        break;
    }
  }
  const results = calls.late;
  if (parts.length === 0) return { message: null, results };
  const metadata = { ...extras(content), ...(finishReason ? { finish: finishReason.unified } : {}) };
  const message: AssistantMessage = {
    role: 'assistant',
    parts,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
  return { message, results };
}

export function responseMessage(
  content: LanguageModelV3Content[],
  finishReason?: LanguageModelV3FinishReason,
): AssistantMessage | null {
  return fromResponse(content, finishReason).message;
}
