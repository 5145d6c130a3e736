import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import type { AssistantMessage } from '../../model/message.js';

/**
 * A recorded answer given again. When the app sends the very messages a recorded answer was the
 * reply to, without that answer (an HTTP retry reaching this or another app server), the caller
 * never got it: it gets the same answer, with no model call, no write and no branch. Likewise a
 * call that raced another instance over the same messages gets the answer that was recorded.
 */

const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const meta = (m: unknown) => (m ? { providerMetadata: m as SharedV3ProviderMetadata } : {});

/** The recorded message as response content: what the model returned, in the provider's terms. */
export function recordedContent(message: AssistantMessage): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  for (const p of message.parts) {
    if (p.type === 'text') content.push({ type: 'text', text: p.text });
    else if (p.type === 'reasoning')
      content.push({ type: 'reasoning', text: p.text, ...meta(p.providerMetadata) });
    else if (p.type === 'file' && p.data !== undefined)
      content.push({ type: 'file', mediaType: p.mediaType, data: p.data });
    else if (p.type === 'tool')
      content.push({
        type: 'tool-call',
        toolCallId: p.callId,
        toolName: p.name,
        input: JSON.stringify(p.input),
        ...meta(p.providerMetadata),
      });
  }
  return content;
}

export function recordedFinish(message: AssistantMessage): LanguageModelV3FinishReason {
  const stored = message.metadata?.finish;
  const calls = message.parts.some((p) => p.type === 'tool');
  const unified = typeof stored === 'string' ? stored : calls ? 'tool-calls' : 'stop';
  return { unified: unified as LanguageModelV3FinishReason['unified'], raw: undefined };
}

/** A generate result carrying the recorded answer (usage unknown: no model was called). */
export function replayResult(message: AssistantMessage): LanguageModelV3GenerateResult {
  return {
    content: recordedContent(message),
    finishReason: recordedFinish(message),
    usage: NO_USAGE,
    warnings: [],
  };
}

/** The recorded answer as a stream, part by part. */
export function replayStream(message: AssistantMessage): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  recordedContent(message).forEach((c, i) => {
    const id = String(i);
    if (c.type === 'text')
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: c.text },
        { type: 'text-end', id },
      );
    else if (c.type === 'reasoning')
      parts.push(
        { type: 'reasoning-start', id, ...meta(c.providerMetadata) },
        { type: 'reasoning-delta', id, delta: c.text },
        { type: 'reasoning-end', id },
      );
    else if (c.type === 'tool-call' || c.type === 'file') parts.push(c);
  });
  parts.push({ type: 'finish', finishReason: recordedFinish(message), usage: NO_USAGE });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
