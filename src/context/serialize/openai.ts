import type { Message } from '../../model/message.js';
import type { FilePart, ToolPart } from '../../model/parts.js';
import { type Assembler, assemble, concatFold } from './assembler.js';
import { CONTINUING_TEXT, dataUrl, fileMention, systemText, toolInputObject, toolResult } from './common.js';

/** Minimal Chat Completions request message types (only what condense produces). */
export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename?: string; file_data: string } };
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export type OpenAIChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * OpenAI Chat Completions `messages`. Choices:
 * - system messages stay where they are (Chat Completions accepts them anywhere);
 * - reasoning is dropped whole: Chat Completions has no reasoning input;
 * - an assistant's calls are followed by one `tool` message per call, in call order; images a tool
 *   returned go in one user message after that block (tool messages carry text only);
 * - the request may end on tool messages: that is the normal tool loop, no filler is added;
 * - assistant files have no Chat Completions form and become a text mention.
 */
export function toOpenAIChat(messages: Message[]): OpenAIChatMessage[] {
  return assemble(messages, openAIAssembler);
}

/** Fragments never interact: the request is their concatenation (or one continuing turn). */
export const openAIAssembler: Assembler<
  readonly OpenAIChatMessage[],
  OpenAIChatMessage,
  OpenAIChatMessage[]
> = {
  hoistSystem: false,
  leadingUser: false,
  fragment: openAIMessages,
  fold: concatFold,
  finish: (_system, items) => (items.length > 0 ? items : [{ role: 'user', content: CONTINUING_TEXT }]),
};

function openAIMessages(message: Message): OpenAIChatMessage[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: systemText(message) }];
    case 'user': {
      const content = userContent(message.parts);
      if (content.length === 0) return [];
      // Plain text as a string: OpenAI-compatible local servers often accept nothing else.
      const textOnly = content.every((p) => p.type === 'text');
      return [{ role: 'user', content: textOnly ? content.map((p) => p.text).join('\n') : content }];
    }
    case 'assistant':
      return assistantTurn(message.parts);
  }
}

function userContent(parts: Message['parts']): OpenAIContentPart[] {
  const content: OpenAIContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'file') content.push(filePart(part));
  }
  return content;
}

function filePart(file: FilePart): OpenAIContentPart {
  if (file.mediaType.startsWith('image/')) return { type: 'image_url', image_url: { url: dataUrl(file) } };
  if (file.mediaType === 'application/pdf' && file.data !== undefined) {
    return {
      type: 'file',
      file: { ...(file.filename ? { filename: file.filename } : {}), file_data: dataUrl(file) },
    };
  }
  return { type: 'text', text: fileMention(file) };
}

function assistantTurn(parts: Message['parts']): OpenAIChatMessage[] {
  const texts: string[] = [];
  const tools: ToolPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'file') texts.push(fileMention(part));
    else if (part.type === 'tool') tools.push(part);
  }
  const content = texts.length > 0 ? texts.join('\n') : null;
  if (tools.length === 0) return content === null ? [] : [{ role: 'assistant', content }];
  const turn: OpenAIChatMessage[] = [
    {
      role: 'assistant',
      content,
      tool_calls: tools.map((t) => ({
        id: t.callId,
        type: 'function',
        function: { name: t.name, arguments: JSON.stringify(toolInputObject(t.input)) },
      })),
    },
  ];
  const images: OpenAIContentPart[] = [];
  for (const t of tools) {
    const result = toolResult(t);
    const note = result.attachments.length > 0 ? `\n${result.attachments.map(fileMention).join('\n')}` : '';
    turn.push({ role: 'tool', tool_call_id: t.callId, content: result.text + note });
    for (const file of result.attachments) {
      if (file.mediaType.startsWith('image/')) images.push(filePart(file));
    }
  }
  if (images.length > 0) {
    turn.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...images],
    });
  }
  return turn;
}
