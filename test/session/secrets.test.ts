/**
 * A provider that echoes the key it was sent ("Incorrect API key provided: sk-…", OpenAI's 401)
 * must not put it into anything condense throws or emits: the error of compact() and its causes,
 * the 'compaction:error' and 'compaction:stopped' events, the error prepare() reports, and the
 * error the middleware rethrows. Masked in the library, not only by the CLI.
 */
import { inspect } from 'node:util';
import { APICallError, generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmSummarizer } from '../../src/compact/index.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { wrapped } from '../integrations/support.js';
import { turn } from './helpers.js';

const KEY = 'sk-proj-Abc123Def456Ghi789Jkl012';
const PLAIN = 'plain-looking-credential-value-42';
// A credential of no known shape is masked as the value of a secret-named variable.
beforeEach(() => {
  process.env.CONDENSE_TEST_SERVICE_TOKEN = PLAIN;
});
afterEach(() => {
  delete process.env.CONDENSE_TEST_SERVICE_TOKEN;
});

/** OpenAI's answer to a wrong key, as the AI SDK reports it, echoing the key in every field it has. */
function unauthorized(): APICallError {
  return new APICallError({
    message: `Incorrect API key provided: Bearer ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys. (also ${PLAIN})`,
    url: `https://api.openai.com/v1/chat/completions?api_key=${KEY}`,
    requestBodyValues: { model: 'gpt-4o-mini', headers: { authorization: `Bearer ${KEY}` } },
    statusCode: 401,
    responseHeaders: { 'x-echo': KEY },
    responseBody: JSON.stringify({
      error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' },
    }),
    isRetryable: false,
    cause: new Error(`upstream said ${KEY}`),
  });
}

const failing = () => new MockLanguageModelV3({ doGenerate: async () => Promise.reject(unauthorized()) });

/** Everything an error shows: message, stack, fields, causes. */
const shown = (value: unknown) => inspect(value, { depth: 12 }) + String(value);

function expectClean(value: unknown) {
  const text = shown(value);
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(PLAIN);
  expect(text).not.toContain('Abc123Def456');
}

const options = (): SessionOptions => ({
  model: 'm',
  limits: { contextWindow: 20_000, maxOutput: 2_000 },
  prune: false,
  compaction: { summarizer: llmSummarizer({ model: failing(), maxRetries: 0 }), fallback: false },
});

describe('no credential in an error or event', () => {
  it('compact(): the error and its causes, the compaction:error event', async () => {
    const session = await openSession(memoryStore(), 's', options());
    for (let t = 0; t < 6; t++) await session.append(turn(`request ${t}`, 2, 2_000));
    const events: unknown[] = [];
    session.on('compaction:error', (e) => events.push(e));
    const error = await session.compact().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(shown(error)).toContain('Incorrect API key provided');
    expectClean(error);
    expect(events).toHaveLength(1);
    expectClean(events);
  });

  it('automatic compaction: the error prepare() reports, compaction:stopped after repeated failures', async () => {
    const session = await openSession(memoryStore(), 's', options());
    const seen: unknown[] = [];
    session.on('compaction:error', (e) => seen.push(e));
    session.on('compaction:stopped', (e) => seen.push(e));
    const outcomes: unknown[] = [];
    for (let t = 0; t < 12; t++) {
      await session.append(turn(`request ${t}`, 2, 3_000));
      outcomes.push(
        await session.prepare().then(
          (p) => p.compactionError ?? null,
          (e: unknown) => e,
        ),
      );
    }
    expect(outcomes.some((o) => o !== null)).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
    expectClean(outcomes);
    expectClean(seen);
  });

  it('the compaction:fallback event: its detail names the failure, not the key', async () => {
    const session = await openSession(memoryStore(), 's', {
      ...options(),
      compaction: { summarizer: llmSummarizer({ model: failing(), maxRetries: 0 }) },
    });
    const seen: unknown[] = [];
    session.on('compaction:fallback', (e) => seen.push(e));
    for (let t = 0; t < 6; t++) await session.append(turn(`request ${t}`, 2, 2_000));
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    expect(seen).toHaveLength(1);
    expect(shown(seen[0])).toContain('Incorrect API key provided');
    expectClean(seen);
  });

  it('the middleware: the model error it rethrows', async () => {
    const { model } = wrapped(failing(), memoryStore());
    const error = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
    expect(shown(error)).toContain('Incorrect API key provided');
    expectClean(error);
  });
});
