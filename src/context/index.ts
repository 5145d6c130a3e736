import type { ModelMessage } from 'ai';
import type { Entry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import { toAiSdk } from './serialize/ai-sdk.js';
import { type AnthropicPayload, toAnthropic } from './serialize/anthropic.js';
import { type GeminiPayload, toGemini } from './serialize/gemini.js';
import { type OpenAIChatMessage, toOpenAIChat } from './serialize/openai.js';
import type { Provider } from './validate/types.js';
import { buildView, type ViewOptions } from './view.js';

export * from './repair.js';
export { splitAiSdkSystem, toAiSdk } from './serialize/ai-sdk.js';
export * from './serialize/anthropic.js';
export { CONTINUING_TEXT } from './serialize/common.js';
export * from './serialize/gemini.js';
export * from './serialize/openai.js';
export * from './summary.js';
export * from './validate.js';
export * from './view.js';

/** The request formats condense renders; the same names `validate` takes. */
export type ContextFormat = Provider;

/** What each format's request carries: the value to put in the provider call. */
export interface ContextPayloads {
  'ai-sdk': ModelMessage[];
  openai: OpenAIChatMessage[];
  anthropic: AnthropicPayload;
  gemini: GeminiPayload;
}
export type ContextPayload<F extends ContextFormat> = ContextPayloads[F];

export type RenderOptions<F extends ContextFormat = ContextFormat> = ViewOptions & { format: F };

/** Serializes already-built view messages to `format` (repair included). */
export function serializeContext<F extends ContextFormat>(messages: Message[], format: F): ContextPayload<F> {
  const serializers: { [K in ContextFormat]: (m: Message[]) => ContextPayloads[K] } = {
    'ai-sdk': toAiSdk,
    openai: toOpenAIChat,
    anthropic: toAnthropic,
    gemini: toGemini,
  };
  return serializers[format](messages) as ContextPayload<F>;
}

/** The request content for `entries` (a session's active window) in `format`: view, repair, serialize. */
export function renderContext<F extends ContextFormat>(
  entries: Entry[],
  opts: RenderOptions<F>,
): ContextPayload<F> {
  const { format, ...view } = opts;
  return serializeContext(buildView(entries, view), format);
}
