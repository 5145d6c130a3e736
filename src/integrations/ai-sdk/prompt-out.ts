import type {
  LanguageModelV3DataContent,
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type {
  AssistantContent,
  FilePart,
  ImagePart,
  ModelMessage,
  ToolContent,
  ToolResultPart,
  UserContent,
} from 'ai';
import { isUrlString } from '../../model/ai-sdk/parts.js';

/**
 * The session's view (AI SDK `ModelMessage[]`, as `prepare({ format: 'ai-sdk' })` returns it) →
 * the provider-level prompt the wrapped model takes: the system prompt first, tool-call `input`
 * as an object, tool results as typed outputs, reasoning with its providerOptions.
 */
export function toV3Prompt(system: string | undefined, messages: ModelMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) prompt.push(toV3Message(message));
  return prompt;
}

/** A converted view: the prompt handed out, its system message count, and how it was left. */
interface Converted {
  prompt: LanguageModelV3Prompt;
  head: number;
  length: number;
  last: LanguageModelV3Message | undefined;
}

/** Each session view list (the one prepare() extends in place), as converted so far. */
const converted = new WeakMap<readonly ModelMessage[], Converted>();

/**
 * `toV3Prompt` of the list prepare() hands out, converting only what changed since the last call:
 * that list only grows at its end, and only its last message is ever replaced (a merged turn; see
 * the Fold contract in context/serialize/assembler.ts); a rebuilt view is a new list.
 *
 * The prompt returned is kept and extended in place by the next call, as prepare() keeps its
 * list: copying a window of 50,000 messages would cost more than the rest of the call. One whose
 * length or last message a model changed is not extended but converted anew.
 */
export function viewPrompt(
  system: string | undefined,
  messages: readonly ModelMessage[],
): LanguageModelV3Prompt {
  const head = system ? 1 : 0;
  let done = converted.get(messages);
  if (done === undefined || !untouched(done, head)) {
    done = { prompt: [], head, length: 0, last: undefined };
    converted.set(messages, done);
  }
  const prompt = done.prompt;
  if (system && prompt[0]?.content !== system) prompt[0] = { role: 'system', content: system };
  prompt.length = head + Math.max(0, Math.min(prompt.length - head, messages.length) - 1);
  for (let i = prompt.length - head; i < messages.length; i++) prompt.push(toV3Message(messages[i]!));
  done.length = prompt.length;
  done.last = prompt.at(-1);
  return prompt;
}

/** Whether a converted view is as it was left, with as many system messages as this call's. */
function untouched(done: Converted, head: number): boolean {
  return done.head === head && done.prompt.length === done.length && done.prompt.at(-1) === done.last;
}

function toV3Message(message: ModelMessage): LanguageModelV3Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: userParts(message.content) };
    case 'assistant':
      return { role: 'assistant', content: assistantParts(message.content) };
    case 'tool':
      return { role: 'tool', content: toolParts(message.content) };
  }
}

type V3UserPart = Extract<LanguageModelV3Message, { role: 'user' }>['content'][number];
type V3AssistantPart = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number];
type V3ToolPart = Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number];

function userParts(content: UserContent): V3UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : filePart(p)));
}

function assistantParts(content: AssistantContent): V3AssistantPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: V3AssistantPart[] = [];
  for (const p of content) {
    // Approval requests are the SDK's own bookkeeping: its conversion drops them too.
    if (p.type === 'tool-approval-request') continue;
    const options = p.providerOptions ? { providerOptions: p.providerOptions } : {};
    switch (p.type) {
      case 'text':
        parts.push({ type: 'text', text: p.text, ...options });
        break;
      case 'reasoning':
        parts.push({ type: 'reasoning', text: p.text, ...options });
        break;
      case 'file':
        parts.push(filePart(p));
        break;
      case 'tool-call':
        parts.push({
          type: 'tool-call',
          toolCallId: p.toolCallId,
          toolName: p.toolName,
          input: p.input,
          ...options,
        });
        break;
      case 'tool-result':
        parts.push(resultPartOf(p));
        break;
    }
  }
  return parts;
}

function toolParts(content: ToolContent): V3ToolPart[] {
  return content.flatMap((p) => (p.type === 'tool-result' ? [resultPartOf(p)] : []));
}

function resultPartOf(p: ToolResultPart): LanguageModelV3ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: p.toolCallId,
    toolName: p.toolName,
    output: outputOf(p.output),
    ...(p.providerOptions ? { providerOptions: p.providerOptions } : {}),
  };
}

function filePart(p: FilePart | ImagePart): LanguageModelV3FilePart {
  const data = p.type === 'file' ? p.data : p.image;
  const mediaType = p.mediaType ?? 'image/*';
  const filename = p.type === 'file' && p.filename ? { filename: p.filename } : {};
  return { type: 'file', data: dataContent(data), mediaType, ...filename };
}

/** A string with a scheme is a URL, otherwise inline base64. */
function dataContent(data: FilePart['data']): LanguageModelV3DataContent {
  if (data instanceof URL || data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return isUrlString(data) ? new URL(data) : data;
}

/** Tool outputs have the same shape at both levels, except the deprecated `media` content item. */
function outputOf(output: ToolResultPart['output']): LanguageModelV3ToolResultOutput {
  if (output.type !== 'content') return output;
  return {
    type: 'content',
    value: output.value.map((item) => {
      if (item.type !== 'media') return item;
      const type = item.mediaType.startsWith('image/') ? 'image-data' : 'file-data';
      return { type, data: item.data, mediaType: item.mediaType };
    }),
  };
}
