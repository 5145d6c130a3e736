import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { FilePart, ReasoningPart, ToolPart } from '../../model/parts.js';
import { type Assembler, assemble, type Fold, type FoldStart } from './assembler.js';
import { providerEntry, stringField, toolInputObject, toolResult } from './common.js';

/** Minimal Gemini `generateContent` request types (only what condense produces). */
export type GeminiPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType: string; fileUri: string } }
  | { functionCall: { name: string; args: JsonObject }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: JsonObject } };
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}
export interface GeminiPayload {
  systemInstruction?: { parts: Array<{ text: string }> };
  contents: GeminiContent[];
}

/**
 * Gemini `{ systemInstruction, contents }`. Choices:
 * - every system message goes to `systemInstruction`, in order;
 * - contents start with a user turn ("(continuing)" when the view starts otherwise);
 * - a model turn's functionCall parts are answered, in call order, by the functionResponse parts
 *   that open the next user content; returned files follow them as inline/file data;
 * - adjacent contents of the same role are merged (older Gemini versions require alternation);
 * - reasoning is sent as a thought part with its text untouched, plus its Gemini thought
 *   signature when it has one; signatures of other providers are never sent;
 * - the request may end on function responses: that is the normal tool loop, no filler is added.
 */
export function toGemini(messages: Message[]): GeminiPayload {
  return assemble(messages, geminiAssembler);
}

export const geminiAssembler: Assembler<GeminiContent[], GeminiContent, GeminiPayload> = {
  hoistSystem: true,
  leadingUser: true,
  fragment: geminiContents,
  fold: mergeSameRole,
  finish: (system, contents) => {
    const payload: GeminiPayload = { contents };
    return system.length > 0
      ? { systemInstruction: { parts: system.map((text) => ({ text })) }, ...payload }
      : payload;
  },
};

function geminiContents(message: Message): GeminiContent[] {
  if (message.role !== 'assistant') {
    const parts: GeminiPart[] = [];
    for (const part of message.parts) {
      if (part.type === 'text') parts.push({ text: part.text });
      else if (part.type === 'file') parts.push(filePart(part));
    }
    return [{ role: 'user', parts }];
  }
  const parts: GeminiPart[] = [];
  const responses: GeminiPart[] = [];
  const files: GeminiPart[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') parts.push({ text: part.text });
    else if (part.type === 'file') parts.push(filePart(part));
    else if (part.type === 'reasoning') {
      const thought = thoughtPart(part);
      if (thought !== null) parts.push(thought);
    } else {
      parts.push(callPart(part));
      const result = toolResult(part);
      responses.push(responsePart(part, result.isError, result.value));
      for (const file of result.attachments) files.push(filePart(file));
    }
  }
  const contents: GeminiContent[] = [{ role: 'model', parts }];
  if (responses.length > 0) contents.push({ role: 'user', parts: [...responses, ...files] });
  return contents;
}

/** Drops empty contents and merges neighbours of the same role (older Gemini versions require it). */
function mergeSameRole(start?: FoldStart<GeminiContent>): Fold<GeminiContent[], GeminiContent> {
  const items = start?.items ?? [];
  return {
    items,
    add(fragment) {
      for (const content of fragment) {
        if (content.parts.length === 0) continue;
        const last = items.at(-1);
        // A new object, never a changed one: a request handed out earlier may hold `last`.
        if (last !== undefined && last.role === content.role)
          items[items.length - 1] = { role: content.role, parts: [...last.parts, ...content.parts] };
        else items.push(content);
      }
    },
  };
}

/** Gemini keys its metadata `google` (AI SDK Vertex uses `vertex`). */
function geminiSignature(metadata: JsonObject | undefined): string | undefined {
  return (
    stringField(providerEntry(metadata, 'google'), 'thoughtSignature') ??
    stringField(providerEntry(metadata, 'vertex'), 'thoughtSignature')
  );
}

function thoughtPart(part: ReasoningPart): GeminiPart | null {
  // An empty thought is an empty part; a redacted block of another provider has nothing to show.
  if (part.text === '') return null;
  const signature = geminiSignature(part.providerMetadata);
  return { text: part.text, thought: true, ...(signature ? { thoughtSignature: signature } : {}) };
}

function callPart(part: ToolPart): GeminiPart {
  const signature = geminiSignature(part.providerMetadata);
  return {
    functionCall: { name: part.name, args: toolInputObject(part.input) },
    ...(signature ? { thoughtSignature: signature } : {}),
  };
}

/** `response` must be an object: Google's convention is `output` on success and `error` on failure. */
function responsePart(part: ToolPart, isError: boolean, value: JsonObject[string]): GeminiPart {
  return { functionResponse: { name: part.name, response: isError ? { error: value } : { output: value } } };
}

function filePart(file: FilePart): GeminiPart {
  if (file.url !== undefined) return { fileData: { mimeType: file.mediaType, fileUri: file.url } };
  return { inlineData: { mimeType: file.mediaType, data: file.data ?? '' } };
}
