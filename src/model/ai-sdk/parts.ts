import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import { InputError } from '../errors.js';
import type { JsonObject, JsonValue } from '../json.js';
import { fileFromUrl } from '../media.js';
import type { AssistantPart, FilePart, ToolPart } from '../parts.js';

/**
 * Part-level conversion of the AI SDK's shapes into condense parts. A `ModelMessage` part and a
 * provider-level (V3) prompt part have the same fields (text, reasoning with providerOptions, file,
 * tool-call with `input`), so one function per concept serves both; a V3 response part is mapped
 * to these shapes by its caller (its metadata is `providerMetadata`, its call input a JSON string).
 */

/** File content in any of the AI SDK's shapes. */
export type FileContent = string | Uint8Array | ArrayBuffer | URL;

export interface FileIn {
  data: FileContent;
  mediaType?: string;
  filename?: string;
}

export interface CallIn {
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerOptions?: SharedV3ProviderOptions;
}

export type AssistantPartIn =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; providerOptions?: SharedV3ProviderOptions }
  | ({ type: 'file' } & FileIn)
  | ({ type: 'tool-call' } & CallIn);

/** providerOptions are JSON by contract; condense keeps them as `providerMetadata`. */
export function metadataOf(options: SharedV3ProviderOptions | undefined): JsonObject | undefined {
  return options && Object.keys(options).length > 0 ? (options as JsonObject) : undefined;
}

const withMetadata = (options: SharedV3ProviderOptions | undefined) => {
  const providerMetadata = metadataOf(options);
  return providerMetadata ? { providerMetadata } : {};
};

export function base64Of(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
}

/** A string with a scheme is a URL; base64 has no ':' (the AI SDK tells them apart the same way). */
export const isUrlString = (s: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(s);

/**
 * A file part: bytes and base64 inline, a `data:` URL unpacked inline, any other URL by reference.
 * A media type given is kept; without one it comes from the URL's extension, else `fallback`.
 */
export function fileOf(file: FileIn, fallback = 'application/octet-stream', field = 'data'): FilePart {
  const { data, mediaType, filename } = file;
  const name = filename ? { filename } : {};
  const url = data instanceof URL ? data.href : typeof data === 'string' && isUrlString(data) ? data : null;
  if (url !== null) {
    const part = fileFromUrl(url, mediaType ?? fallback);
    return { ...part, ...(part.url !== undefined && mediaType ? { mediaType } : {}), ...name };
  }
  const type = mediaType ?? fallback;
  if (typeof data === 'string') return { type: 'file', mediaType: type, data, ...name };
  if (data instanceof Uint8Array || data instanceof ArrayBuffer)
    return { type: 'file', mediaType: type, data: base64Of(data), ...name };
  throw new InputError('file content must be base64, bytes or a URL', { field });
}

/** A call as a `pending` tool part; `input` is what the caller made of the call's input. */
export function callOf(p: CallIn, input: JsonValue = (p.input ?? {}) as JsonValue): ToolPart {
  return {
    type: 'tool',
    callId: p.toolCallId,
    name: p.toolName,
    input,
    state: 'pending',
    ...withMetadata(p.providerOptions),
  };
}

export function assistantPartOf(p: AssistantPartIn): AssistantPart {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: p.text };
    case 'reasoning':
      return { type: 'reasoning', text: p.text, ...withMetadata(p.providerOptions) };
    case 'file':
      return fileOf(p);
    case 'tool-call':
      return callOf(p);
  }
}
