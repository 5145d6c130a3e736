import type {
  FilePart as AiFilePart,
  AssistantContent,
  ModelMessage,
  ToolContent,
  ToolResultPart,
  UserContent,
} from 'ai';
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { FilePart, ToolPart } from '../../model/parts.js';
import { type Assembler, assemble, type Fold, type FoldStart, freshStart } from './assembler.js';
import { type CallIdFields, toolInputObject, toolResult, uniqueCalls } from './common.js';

type ToolOutput = ToolResultPart['output'];
type ProviderOptions = NonNullable<ToolResultPart['providerOptions']>;
type ContentOutputItem = Extract<ToolOutput, { type: 'content' }>['value'][number];

/**
 * AI SDK `ModelMessage[]`. Per-provider choices, since the result may go to any AI SDK provider:
 * - system messages are all placed first (the SDK's Anthropic and Google providers reject a system
 *   message after the conversation started);
 * - the first non-system message is a user message (a synthetic "(continuing)" one if needed);
 * - each assistant message with calls is followed by one `tool` message with every result in call
 *   order; a conversation may end on that tool message (the SDK's own loop sends exactly that, so no
 *   "Understood." filler is added);
 * - reasoning goes through as is, `providerMetadata` becoming `providerOptions`;
 * - call ids are unique in the request (a repeat gets a suffix, its result following it): the SDK
 *   forwards them as they are, and Anthropic rejects an id used twice in one request.
 */
export function toAiSdk(messages: Message[]): ModelMessage[] {
  return assemble(messages, aiSdkAssembler);
}

/** Fragments are concatenated, call ids made unique; the hoisted system texts go first. */
export const aiSdkAssembler: Assembler<readonly ModelMessage[], ModelMessage, ModelMessage[]> = {
  hoistSystem: true,
  leadingUser: true,
  fragment: aiSdkMessages,
  fold: aiSdkFold,
  finish: (system, items) => {
    const out: ModelMessage[] = system.map((content) => ({ role: 'system', content }));
    for (const item of items) out.push(item);
    return out;
  },
};

function aiSdkMessages(message: Message): ModelMessage[] {
  switch (message.role) {
    case 'system':
      return []; // hoisted: the system slot holds it
    case 'user':
      return [{ role: 'user', content: userContent(message.parts) }];
    case 'assistant': {
      const content: Exclude<AssistantContent, string> = [];
      const tools: ToolPart[] = [];
      for (const part of message.parts) {
        if (part.type === 'text') content.push({ type: 'text', text: part.text });
        else if (part.type === 'file') content.push(filePart(part));
        else if (part.type === 'reasoning') {
          const providerOptions = toProviderOptions(part.providerMetadata);
          content.push({
            type: 'reasoning',
            text: part.text,
            ...(providerOptions ? { providerOptions } : {}),
          });
        } else {
          tools.push(part);
          const providerOptions = toProviderOptions(part.providerMetadata);
          content.push({
            type: 'tool-call',
            toolCallId: part.callId,
            toolName: part.name,
            input: toolInputObject(part.input),
            ...(providerOptions ? { providerOptions } : {}),
          });
        }
      }
      const out: ModelMessage[] = [{ role: 'assistant', content }];
      if (tools.length > 0) out.push({ role: 'tool', content: tools.map(resultPart) satisfies ToolContent });
      return out;
    }
  }
}

function aiSdkFold(start?: FoldStart<ModelMessage>): Fold<readonly ModelMessage[], ModelMessage> {
  const { items, ids } = freshStart(start);
  return {
    items,
    add(fragment) {
      for (const message of uniqueIds(fragment, ids.take)) items.push(message);
    },
  };
}

/**
 * The fragment with each call id unique in the request (a repeat gets a suffix), each result
 * following its call's new id by position; as it is when no id had to change.
 */
function uniqueIds(
  fragment: readonly ModelMessage[],
  ids: (callId: string) => string,
): readonly ModelMessage[] {
  const [call, answer] = fragment;
  if (call?.role !== 'assistant' || answer?.role !== 'tool' || typeof call.content === 'string')
    return fragment;
  const unique = uniqueCalls(call.content, answer.content, ids, AI_SDK_IDS);
  if (unique === null) return fragment;
  return [
    { ...call, content: unique.calls },
    { ...answer, content: unique.results },
  ];
}

type CallBlock = Exclude<AssistantContent, string>[number];
const AI_SDK_IDS: CallIdFields<CallBlock, ToolContent[number]> = {
  callId: (p) => (p.type === 'tool-call' ? p.toolCallId : undefined),
  withCallId: (p, toolCallId) => ({ ...p, toolCallId }) as CallBlock,
  withResultId: (p, toolCallId) => ({ ...p, toolCallId }) as ToolContent[number],
};

function userContent(parts: Message['parts']): Exclude<UserContent, string> {
  const content: Exclude<UserContent, string> = [];
  for (const part of parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'file') content.push(filePart(part));
  }
  return content;
}

function filePart(file: FilePart): AiFilePart {
  return {
    type: 'file',
    data: file.url ?? file.data ?? '',
    mediaType: file.mediaType,
    ...(file.filename ? { filename: file.filename } : {}),
  };
}

function resultPart(part: ToolPart): ToolResultPart {
  return { type: 'tool-result', toolCallId: part.callId, toolName: part.name, output: toolOutput(part) };
}

function toolOutput(part: ToolPart): ToolOutput {
  const result = toolResult(part);
  if (result.isError) return { type: 'error-text', value: result.text };
  if (result.attachments.length > 0) {
    return {
      type: 'content',
      value: [{ type: 'text', text: result.text }, ...result.attachments.map(mediaItem)],
    };
  }
  if (typeof result.value === 'string') return { type: 'text', value: result.value };
  return { type: 'json', value: result.value };
}

function mediaItem(file: FilePart): ContentOutputItem {
  const image = file.mediaType.startsWith('image/');
  if (file.url !== undefined) {
    return image
      ? { type: 'image-url', url: file.url }
      : { type: 'file-url', url: file.url, mediaType: file.mediaType };
  }
  const data = file.data ?? '';
  if (image) return { type: 'image-data', data, mediaType: file.mediaType };
  return {
    type: 'file-data',
    data,
    mediaType: file.mediaType,
    ...(file.filename ? { filename: file.filename } : {}),
  };
}

/** providerMetadata → providerOptions: the SDK wants one object per provider key. */
function toProviderOptions(metadata: JsonObject | undefined): ProviderOptions | undefined {
  if (metadata === undefined) return undefined;
  const options: ProviderOptions = {};
  for (const [provider, value] of Object.entries(metadata)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) options[provider] = value;
  }
  return Object.keys(options).length > 0 ? options : undefined;
}

/** Splits leading system messages off, for `generateText({ system, messages })` (no SDK warning). */
export function splitAiSdkSystem(messages: ModelMessage[]): { system?: string; messages: ModelMessage[] } {
  const system: string[] = [];
  let i = 0;
  for (; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'system') break;
    system.push(m.content);
  }
  return system.length > 0 ? { system: system.join('\n\n'), messages: messages.slice(i) } : { messages };
}
