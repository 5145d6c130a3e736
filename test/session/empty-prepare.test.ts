/**
 * prepare() on a session with no message used to return a request its own validate() rejects
 * (no message at all: every provider refuses it). It now says there is nothing to send; the first
 * message makes a valid request in every format.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { EmptyContextError, openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

const FORMATS = ['ai-sdk', 'openai', 'anthropic', 'gemini'] as const;

describe('prepare() on an empty session', () => {
  it.each([
    ['without a system prompt', undefined],
    ['with a system prompt', 'You are a careful agent.'],
  ])(
    '%s: EmptyContextError in every format, then a valid request once a message is there',
    async (_name, system) => {
      const session = await openSession(memoryStore(), 'new-chat', { model: 'gpt-4o', system });
      for (const format of FORMATS) {
        const error = await session.prepare({ format }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(EmptyContextError);
        expect((error as Error).message).toBe(
          "nothing to send: session 'new-chat' has no message in its context yet; append the user's request before prepare()",
        );
      }
      await session.append({ role: 'user', content: 'Hello' });
      for (const format of FORMATS) {
        const { messages } = await session.prepare({ format });
        expect(validate(messages, format)).toEqual([]);
      }
    },
  );
});
