import type { Message } from '../../model/message.js';
import type { FilePart, ReasoningPart, ToolPart } from '../../model/parts.js';
import { type AnthropicFragment, anthropicFold } from './anthropic-fold.js';
import type {
  AnthropicBlock,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicPayload,
  AnthropicSource,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
} from './anthropic-types.js';
import { type Assembler, assemble } from './assembler.js';
import { fileMention, providerEntry, stringField, toolInputObject, toolResult } from './common.js';

export type * from './anthropic-types.js';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Anthropic Messages `{ system, messages }`. Choices:
 * - every system message (system prompt, summary-as-system) goes to `system`, in order;
 * - the first turn is a user turn ("(continuing)", synthetic, when the view starts otherwise);
 * - an assistant's calls are answered in the next user turn, tool_result blocks first; adjacent
 *   turns of the same role are merged so roles strictly alternate;
 * - thinking blocks keep text and signature byte for byte; one without a signature is dropped whole;
 *   `redactedData` becomes redacted_thinking;
 * - tool_use ids are made unique and API-safe (tau-bench repeats ids; Anthropic rejects repeats),
 *   each result following its call's new id, so pairing is by position;
 * - the request may end on tool results: that is the normal tool loop, no filler is added; one
 *   ending on an assistant turn (a prefill) has trailing whitespace trimmed from its last text.
 */
export function toAnthropic(messages: Message[]): AnthropicPayload {
  return assemble(messages, anthropicAssembler);
}

export const anthropicAssembler: Assembler<AnthropicFragment, AnthropicMessage, AnthropicPayload> = {
  hoistSystem: true,
  leadingUser: true,
  fragment: anthropicTurns,
  fold: anthropicFold,
  finish: (system, items) => {
    const payload: AnthropicPayload = { messages: items };
    return system.length > 0 ? { system: system.join('\n\n'), ...payload } : payload;
  },
};

function anthropicTurns(message: Message): AnthropicFragment {
  if (message.role !== 'assistant') {
    const content: AnthropicBlock[] = [];
    for (const part of message.parts) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else if (part.type === 'file') content.push(fileBlock(part));
    }
    return { turns: [{ role: 'user', content }], calls: 0 };
  }
  const content: AnthropicBlock[] = [];
  const results: AnthropicToolResultBlock[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'file') content.push({ type: 'text', text: fileMention(part) });
    else if (part.type === 'reasoning') {
      const block = thinkingBlock(part);
      if (block !== null) content.push(block);
    } else {
      const id = anthropicSafe(part.callId);
      content.push({ type: 'tool_use', id, name: part.name, input: toolInputObject(part.input) });
      results.push(resultBlock(id, part));
    }
  }
  const turns: AnthropicMessage[] = [{ role: 'assistant', content }];
  if (results.length > 0) turns.push({ role: 'user', content: results });
  return { turns, calls: results.length };
}

function thinkingBlock(part: ReasoningPart): AnthropicBlock | null {
  const meta = providerEntry(part.providerMetadata, 'anthropic');
  const redacted = stringField(meta, 'redactedData');
  if (redacted !== undefined) return { type: 'redacted_thinking', data: redacted };
  const signature = stringField(meta, 'signature');
  return signature === undefined ? null : { type: 'thinking', thinking: part.text, signature };
}

function resultBlock(id: string, part: ToolPart): AnthropicToolResultBlock {
  const result = toolResult(part);
  const content: AnthropicToolResultBlock['content'] =
    result.attachments.length === 0
      ? result.text
      : [{ type: 'text', text: result.text }, ...result.attachments.map(fileBlock)];
  return { type: 'tool_result', tool_use_id: id, content, ...(result.isError ? { is_error: true } : {}) };
}

function fileBlock(file: FilePart): AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock {
  const source: AnthropicSource =
    file.url !== undefined
      ? { type: 'url', url: file.url }
      : { type: 'base64', media_type: file.mediaType, data: file.data ?? '' };
  if (IMAGE_TYPES.has(file.mediaType)) return { type: 'image', source };
  if (file.mediaType === 'application/pdf') {
    return { type: 'document', source, ...(file.filename ? { title: file.filename } : {}) };
  }
  return { type: 'text', text: fileMention(file) };
}

/** Anthropic's tool_use id alphabet is `^[a-zA-Z0-9_-]+$`. */
function anthropicSafe(callId: string): string {
  return callId.replace(/[^a-zA-Z0-9_-]/g, '_');
}
