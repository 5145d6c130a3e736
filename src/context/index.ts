import type { Entry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import { assemblerFor, type ContextFormat, type ContextPayload } from './formats.js';
import { assemble } from './serialize/assembler.js';
import { buildView, type ViewOptions } from './view.js';

export type { ContextFormat, ContextPayload, ContextPayloads } from './formats.js';
export { IncrementalContext } from './incremental.js';

export * from './repair.js';
export { splitAiSdkSystem, toAiSdk } from './serialize/ai-sdk.js';
export * from './serialize/anthropic.js';
export { CONTINUING_TEXT } from './serialize/common.js';
export * from './serialize/gemini.js';
export * from './serialize/openai.js';
export * from './summary.js';
export * from './validate.js';
export * from './view.js';

/** Serializes already-built view messages to `format` (repair included). */
export function serializeContext<F extends ContextFormat>(messages: Message[], format: F): ContextPayload<F> {
  return assemble(messages, assemblerFor(format));
}

export type RenderOptions<F extends ContextFormat = ContextFormat> = ViewOptions & { format: F };

/** The request content for `entries` (a session's active window) in `format`: view, repair, serialize. */
export function renderContext<F extends ContextFormat>(
  entries: readonly Entry[],
  opts: RenderOptions<F>,
): ContextPayload<F> {
  const { format, ...view } = opts;
  return serializeContext(buildView(entries, view), format);
}
