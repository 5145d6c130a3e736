import { InputError } from '../model/errors.js';
import type { Message } from '../model/message.js';
import { tokenizerCount } from '../tokens/budget-count.js';
import { messageText } from './text.js';

/** Tokens a chat message costs beyond its text (role and separators), as OpenAI's format counts it. */
export const MESSAGE_FRAMING = 4;

/**
 * The o200k count of what a model reads: the real tokenizer, not condense's own estimate, so that a
 * budget claimed in the eval is the one a provider would hold the request to.
 */
export function realCounter(): (text: string) => number {
  const count = tokenizerCount('o200k_base');
  if (count === null)
    throw new InputError('the eval counts with the o200k tokenizer: install the gpt-tokenizer package', {
      field: 'gpt-tokenizer',
    });
  const plain = { disallowedSpecial: new Set<string>() };
  return (text) => count(text, plain);
}

/** A message's real size: its text by the tokenizer plus framing. */
export function messageTokens(message: Message, count: (text: string) => number): number {
  return count(messageText(message)) + MESSAGE_FRAMING;
}
