import type { LanguageModel } from 'ai';
import type { Message } from '../model/message.js';
import { openSession, type SessionOptions } from '../session/index.js';
import { memoryStore } from '../store/index.js';
import { messageTokens } from './real-count.js';
import type { Context } from './strategies.js';
import { messageText } from './text.js';

export interface ShippedOptions {
  /** An AI SDK model: it writes the summary, as `openSession({ model })` makes it. */
  model?: Exclude<LanguageModel, string>;
  /** The agent's working directory and other session metadata an import would store. */
  metadata?: SessionOptions['metadata'];
}

export type Timed = { message: Message; createdAt?: number };

/**
 * Opens a session with the shipped defaults, appends the messages (each at its own time, where the
 * layout has one), and appends more messages in the same way. The session is what a user's would be.
 */
export async function sessionOf(messages: readonly Timed[], options: ShippedOptions = {}) {
  let clock = 0;
  const session = await openSession(memoryStore(), 'eval', {
    ...(options.model ? { model: options.model } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
    now: () => clock,
  });
  for (let i = 0; i < messages.length; ) {
    const at = messages[i]!.createdAt;
    let j = i + 1;
    while (j < messages.length && messages[j]!.createdAt === at) j++;
    clock = at ?? i;
    await session.append(messages.slice(i, j).map((m) => m.message));
    i = j;
  }
  return session;
}

/**
 * What the shipped product leaves in the context at a target: `compact({ targetTokens })` with the
 * default options, then the request `prepare()` builds — counted by the real tokenizer.
 */
export async function shippedContext(
  messages: readonly Timed[],
  targetTokens: number,
  count: (text: string) => number,
  options: ShippedOptions = {},
): Promise<Context> {
  const session = await sessionOf(messages, options);
  const outcome = await session.compact({ targetTokens });
  const { messages: sent } = await session.prepare({ format: 'openai' });
  const view: Message[] = sent.map((m) => ({
    role: m.role === 'assistant' ? 'assistant' : 'user',
    parts: [{ type: 'text', text: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }],
  }));
  const summary = outcome.status === 'compacted' ? outcome.summary : undefined;
  const details = outcome.status === 'compacted' ? outcome.pivot.pivot.details : undefined;
  return {
    tokens: view.reduce((a, m) => a + messageTokens(m, count), 0),
    text: view.map(messageText).join('\n'),
    ...(summary === undefined ? {} : { summary }),
    ...(details === undefined ? {} : { details }),
    ...(details?.lastUserRequest === undefined ? {} : { latestRequest: details.lastUserRequest }),
  };
}
