/**
 * A single message larger than the window and nothing before it: a compaction has nothing to
 * summarize (the message is all kept tail), so it used to be skipped and a 1.5M-token request went
 * out. On every path — prepare(), the step hooks, the middleware (generate and stream) — the
 * request is refused with FloorTooLargeError naming the message before any model call, or, with
 * `oversize: 'truncate'`, sent truncated and under the window.
 */
import { generateText, type ModelMessage, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { FloorTooLargeError } from '../../src/index.js';
import { stepHooks } from '../../src/integrations/ai-sdk/step-hooks.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { promptText, textReply, wrapped } from '../integrations/support.js';

const BIG = `Please review this dump: ${'lorem ipsum dolor sit amet '.repeat(230_000)}`; // 6.2 MB
const options: SessionOptions = { model: 'gpt-4o', limits: { contextWindow: 128_000, maxOutput: 16_000 } };
const truncate: SessionOptions = { ...options, oversize: 'truncate' };

/** A model that answers "ok" and records what it was sent. */
function mockModel() {
  return new MockLanguageModelV3({
    doGenerate: async () => textReply('ok', 60_000),
  });
}

function expectNamed(error: unknown, entryId: string) {
  expect(error).toBeInstanceOf(FloorTooLargeError);
  expect((error as FloorTooLargeError).largest).toMatchObject({ entryId, role: 'user' });
  expect((error as Error).message).toContain(entryId);
  expect((error as Error).message).toMatch(/alone is over the budget of 112000 tokens/);
}

const stores: [string, () => Store][] = [
  ['memory', () => memoryStore()],
  ['sqlite', () => sqliteStore({ path: ':memory:' })],
];

describe.each(stores)('a lone message over the window (%s store)', (_name, makeStore) => {
  it('prepare() throws FloorTooLargeError naming it, in every format; nothing is written', async () => {
    const session = await openSession(makeStore(), 's', options);
    const [entry] = await session.append({ role: 'user', content: BIG });
    for (const format of ['ai-sdk', 'openai', 'anthropic', 'gemini'] as const)
      expectNamed(await session.prepare({ format }).catch((e: unknown) => e), entry!.id);
    expect(session.activeEntries().map((e) => e.id)).toEqual([entry!.id]);
  });

  it("with oversize: 'truncate', the request is the truncated message, under the window", async () => {
    const session = await openSession(makeStore(), 's', truncate);
    await session.append({ role: 'user', content: BIG });
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.decision.tokens).toBeLessThanOrEqual(112_000);
    expect(JSON.stringify(prepared.messages)).toMatch(/characters left out by condense/);
    expect(validate(prepared.messages, 'openai')).toEqual([]);
  });
});

describe('a lone message over the window through the AI SDK', () => {
  it('step hooks: generateText fails before the model is called', async () => {
    const session = await openSession(memoryStore(), 's', options);
    const [entry] = await session.append({ role: 'user', content: BIG });
    const model = mockModel();
    // Each step's messages come from prepareStep; the first prepare of the call is the one that refuses.
    const error = await generateText({ model, prompt: 'placeholder', ...stepHooks(session) }).catch(
      (e: unknown) => e,
    );
    expectNamed(error, entry!.id);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('middleware, generate and stream: refused before the model is called', async () => {
    const store = memoryStore();
    const model = mockModel();
    const { model: wrappedModel, sessions } = wrapped(model, store, options);
    const messages: ModelMessage[] = [{ role: 'user', content: BIG }];
    const generated = await generateText({ model: wrappedModel, messages }).catch((e: unknown) => e);
    const [entry] = sessions[0]!.activeEntries();
    expectNamed(generated, entry!.id);
    let streamed: unknown;
    const stream = streamText({
      model: wrappedModel,
      messages,
      onError: ({ error }) => {
        streamed = error;
      },
    });
    await stream.consumeStream();
    expectNamed(streamed, entry!.id);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(model.doStreamCalls).toHaveLength(0);
    // The message is stored once, as the app sent it.
    expect(sessions[0]!.activeEntries()).toHaveLength(1);
  });

  it("middleware with oversize: 'truncate': the model gets the truncated message, under the window", async () => {
    const model = mockModel();
    const { model: wrappedModel } = wrapped(model, memoryStore(), truncate);
    await generateText({ model: wrappedModel, messages: [{ role: 'user', content: BIG }] });
    expect(model.doGenerateCalls).toHaveLength(1);
    const sent = promptText(model.doGenerateCalls[0]!.prompt);
    expect(sent).toMatch(/characters left out by condense/);
    expect(sent.length).toBeLessThan(112_000 * 4);
  });
});
