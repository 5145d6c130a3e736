import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';

/** What a finished stream delivered, in the shape a generate call returns it. */
export interface StreamedResponse {
  content: LanguageModelV3Content[];
  usage: LanguageModelV3Usage;
  finishReason: LanguageModelV3FinishReason;
}

type Block = { type: 'text' | 'reasoning'; text: string; providerMetadata?: SharedV3ProviderMetadata };

/**
 * Collects the parts of a model stream into response content: text and reasoning blocks (by id,
 * in the order they started), complete tool calls and results, files, sources; and the finish
 * part's usage. Tool-input deltas are not kept: only a complete `tool-call` part is a call.
 */
export class StreamCollector {
  private readonly content: (LanguageModelV3Content | Block)[] = [];
  private readonly open = new Map<string, Block>();
  private finish: { usage: LanguageModelV3Usage; finishReason: LanguageModelV3FinishReason } | null = null;

  add(part: LanguageModelV3StreamPart): void {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start': {
        const block: Block = { type: part.type === 'text-start' ? 'text' : 'reasoning', text: '' };
        if (part.providerMetadata) block.providerMetadata = part.providerMetadata;
        this.open.set(`${block.type}:${part.id}`, block);
        this.content.push(block);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const block = this.open.get(`${part.type === 'text-delta' ? 'text' : 'reasoning'}:${part.id}`);
        if (block) block.text += part.delta;
        break;
      }
      case 'text-end':
      case 'reasoning-end': {
        const block = this.open.get(`${part.type === 'text-end' ? 'text' : 'reasoning'}:${part.id}`);
        // The end part carries what the provider knows last (e.g. a reasoning signature).
        if (block && part.providerMetadata) {
          block.providerMetadata = { ...block.providerMetadata, ...part.providerMetadata };
        }
        break;
      }
      case 'tool-call':
      case 'tool-result':
      case 'file':
      case 'source':
        this.content.push(part);
        break;
      case 'finish':
        this.finish = { usage: part.usage, finishReason: part.finishReason };
        break;
    }
  }

  /** The response, or null when the stream ended without its finish part (cancelled, failed). */
  result(): StreamedResponse | null {
    if (!this.finish) return null;
    return { content: this.content as LanguageModelV3Content[], ...this.finish };
  }
}

/**
 * The same stream, part for part, handing what it collected to `onEnd` once: at its end (before
 * the consumer sees it close), on an error, or when the consumer cancels. `onEnd` gets null when
 * no finish part arrived, so a response is recorded whole or not at all.
 */
export function collectingStream(
  source: ReadableStream<LanguageModelV3StreamPart>,
  onEnd: (response: StreamedResponse | null) => Promise<void>,
): ReadableStream<LanguageModelV3StreamPart> {
  const reader = source.getReader();
  const collector = new StreamCollector();
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    await onEnd(collector.result());
  };
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        // The stream's own error is the one the consumer needs to see.
        await end().catch(() => undefined);
        controller.error(error);
        return;
      }
      if (next.done) {
        await end();
        controller.close();
        return;
      }
      collector.add(next.value);
      controller.enqueue(next.value);
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        await end();
      }
    },
  });
}
