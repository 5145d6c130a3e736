import type { ModelMessage } from 'ai';
import { type BreakpointDialect, markOf, TurnBreakpoints } from './cache-breakpoints.js';
import type { AnthropicCacheControl } from './serialize/anthropic-types.js';

type Options = Record<string, Record<string, unknown>>;

/** `providerOptions` with Anthropic's `cacheControl` added, the rest kept. */
function withCacheControl(options: Options | undefined, mark: AnthropicCacheControl): Options {
  return { ...options, anthropic: { ...options?.anthropic, cacheControl: mark } };
}

/**
 * AI SDK messages bound for an Anthropic model: the SDK's Anthropic provider turns
 * `providerOptions.anthropic.cacheControl` on a part (or on a message whose content is a string)
 * into that block's `cache_control`. Reasoning and empty text carry none, as in Anthropic's own
 * request.
 */
const aiSdkDialect = (mark: AnthropicCacheControl): BreakpointDialect<ModelMessage> => ({
  cacheable: (turn) => {
    if (typeof turn.content === 'string') return turn.content === '' ? null : 0;
    for (let i = turn.content.length - 1; i >= 0; i--) {
      const part = turn.content[i]!;
      if (part.type === 'reasoning') continue;
      if (part.type === 'text' && part.text === '') continue;
      return i;
    }
    return null;
  },
  mark: (turn, pieces) => {
    if (typeof turn.content === 'string')
      return {
        ...turn,
        providerOptions: withCacheControl(turn.providerOptions as Options, mark),
      } as ModelMessage;
    const content = turn.content.map((part, i) =>
      pieces.has(i)
        ? {
            ...part,
            providerOptions: withCacheControl((part as { providerOptions?: Options }).providerOptions, mark),
          }
        : part,
    );
    return { ...turn, content } as ModelMessage;
  },
});

/**
 * The breakpoints of an AI SDK request to an Anthropic model, where Anthropic's own request puts
 * them (see AnthropicBreakpoints): the summary, the end of the previous request, the last
 * message. The system prompt goes apart (generateText's `system`) and is covered by them.
 */
export function aiSdkBreakpoints(ttl?: '1h'): TurnBreakpoints<ModelMessage> {
  return new TurnBreakpoints(aiSdkDialect(markOf(ttl)));
}
