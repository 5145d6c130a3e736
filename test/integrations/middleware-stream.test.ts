import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { memoryStore } from '../../src/store/index.js';
import { runTurns, scriptedAgent } from './harness.js';
import { messageEntries, texts, wrapped } from './support.js';

/** The stored messages without the times at which they were stored. */
async function storedMessages(store: ReturnType<typeof memoryStore>): Promise<Message[]> {
  const entries = await messageEntries(store, 'chat');
  return JSON.parse(
    JSON.stringify(
      entries.map((e) => e.message),
      (k, v) => (k === 'endedAt' ? undefined : v),
    ),
  );
}

const usage = {
  inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};
const answer: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'reasoning-start', id: 'r', providerMetadata: { anthropic: { signature: '' } } },
  { type: 'reasoning-delta', id: 'r', delta: 'Think' },
  { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'sig-9' } } },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hel' },
  { type: 'text-delta', id: 't', delta: 'lo.' },
  { type: 'text-end', id: 't' },
  { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'end_turn' } },
];

function streamingModel(stream: () => ReadableStream<LanguageModelV3StreamPart>) {
  return new MockLanguageModelV3({ doStream: async () => ({ stream: stream() }) });
}

const call = (text: string): LanguageModelV3CallOptions => ({
  prompt: [{ role: 'user', content: [{ type: 'text', text }] }],
});

async function readAll(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  return parts;
}

describe('condenseMiddleware with streamText', () => {
  it('records exactly what generateText records for the same agent', async () => {
    const viaGenerate = memoryStore();
    const a = scriptedAgent({ seed: 21 });
    await runTurns({ agent: a, model: wrapped(a.model, viaGenerate).model, turns: 4 });
    const viaStream = memoryStore();
    const b = scriptedAgent({ seed: 21 });
    await runTurns({ agent: b, model: wrapped(b.model, viaStream).model, turns: 4, stream: true });
    expect(b.requests.length).toBe(a.requests.length);
    expect(await storedMessages(viaStream)).toEqual(await storedMessages(viaGenerate));
  });

  it('passes the stream through unchanged and records it whole, reasoning signature included', async () => {
    const store = memoryStore();
    const { model } = wrapped(
      streamingModel(() => convertArrayToReadableStream(answer)),
      store,
    );
    const { stream } = await model.doStream(call('hi'));
    expect(await readAll(stream)).toEqual(answer);
    const [, reply] = await messageEntries(store, 'chat');
    expect(reply!.message.parts).toEqual([
      { type: 'reasoning', text: 'Think', providerMetadata: { anthropic: { signature: 'sig-9' } } },
      { type: 'text', text: 'Hello.' },
    ]);
  });

  it('a stream the consumer cancels records nothing of the answer and frees the next call', async () => {
    const store = memoryStore();
    let streams = 0;
    const { model, sessions } = wrapped(
      streamingModel(() =>
        streams++ === 0
          ? new ReadableStream({ start: (c) => c.enqueue(answer[5]!) })
          : convertArrayToReadableStream(answer),
      ),
      store,
    );
    const first = (await model.doStream(call('hi'))).stream.getReader();
    await first.read();
    await first.cancel('user left');
    // The same prompt again: nothing new to store, nothing half-stored before it.
    await readAll((await model.doStream(call('hi'))).stream);
    const entries = await messageEntries(store, 'chat');
    expect(entries.map((e) => e.message.role)).toEqual(['user', 'assistant']);
    expect(texts(entries, 'assistant')).toEqual(['Hello.']);
    expect(sessions.map((s) => s.id)).toEqual(['chat']);
  });

  it('a stream that fails or ends without its finish part records nothing; the error reaches the consumer', async () => {
    const store = memoryStore();
    const failing = new ReadableStream<LanguageModelV3StreamPart>({
      start(c) {
        c.enqueue(answer[4]!);
        c.enqueue(answer[5]!);
        c.error(new Error('socket hang up'));
      },
    });
    const truncated = convertArrayToReadableStream(answer.slice(0, -1));
    const sources = [failing, truncated, convertArrayToReadableStream(answer)];
    const { model } = wrapped(
      streamingModel(() => sources.shift()!),
      store,
    );
    await expect(readAll((await model.doStream(call('hi'))).stream)).rejects.toThrow('socket hang up');
    await readAll((await model.doStream(call('hi'))).stream);
    expect((await messageEntries(store, 'chat')).map((e) => e.message.role)).toEqual(['user']);
    await readAll((await model.doStream(call('hi'))).stream);
    expect((await messageEntries(store, 'chat')).map((e) => e.message.role)).toEqual(['user', 'assistant']);
  });
});
