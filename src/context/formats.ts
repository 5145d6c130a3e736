import type { ModelMessage } from 'ai';
import { aiSdkAssembler } from './serialize/ai-sdk.js';
import { type AnthropicPayload, anthropicAssembler } from './serialize/anthropic.js';
import type { Assembler } from './serialize/assembler.js';
import { type GeminiPayload, geminiAssembler } from './serialize/gemini.js';
import { type OpenAIChatMessage, openAIAssembler } from './serialize/openai.js';
import type { Provider } from './validate/types.js';

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

const ASSEMBLERS = {
  'ai-sdk': aiSdkAssembler,
  openai: openAIAssembler,
  anthropic: anthropicAssembler,
  gemini: geminiAssembler,
} as const;

/** How `format` is assembled from per-message fragments (see serialize/assembler.ts). */
export function assemblerFor<F extends ContextFormat>(
  format: F,
): Assembler<unknown, unknown, ContextPayload<F>> {
  // Each assembler's fragments and items only ever meet its own fold: their types stay inside.
  return ASSEMBLERS[format] as unknown as Assembler<unknown, unknown, ContextPayload<F>>;
}
