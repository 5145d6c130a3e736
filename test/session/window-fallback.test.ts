import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/memory.js';

async function fallbackEvents(options: Parameters<typeof openSession>[2]) {
  const session = await openSession(memoryStore(), 's', options);
  const seen: { model: string; contextWindow: number; message: string }[] = [];
  session.on('window:fallback', (e) => seen.push(e));
  await session.append({ role: 'user', content: 'hello' });
  await session.prepare();
  await session.prepare();
  return { session, seen };
}

/** An AI SDK model as `ai-sdk-ollama` makes it: provider 'ollama', its settings on the object. */
function ollamaModel(settings: object) {
  const model = new MockLanguageModelV3({ provider: 'ollama', modelId: 'qwen3:8b' });
  return Object.assign(model, { settings });
}

describe('a window that is only the fallback', () => {
  it('warns once per session, naming the model and how to give the real window', async () => {
    const { session, seen } = await fallbackEvents({ model: 'qwen3:8b' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ model: 'qwen3:8b', contextWindow: 128_000 });
    expect(seen[0]!.message).toMatch(/qwen3:8b.*not in the model catalog.*contextWindow.*num_ctx/);
    expect(session.config.windowFallback).toBe(true);
  });

  it('stays silent for a catalog model, a window given in the options, or an Ollama num_ctx', async () => {
    expect((await fallbackEvents({ model: 'claude-opus-4-6' })).seen).toEqual([]);
    expect((await fallbackEvents({ model: 'qwen3:8b', limits: { contextWindow: 32_768 } })).seen).toEqual([]);
    const ollama = await fallbackEvents({ model: ollamaModel({ options: { num_ctx: 16_384 } }) });
    expect(ollama.seen).toEqual([]);
    expect(ollama.session.config.budget.contextWindow).toBe(16_384);
  });

  it("reads num_ctx only from an Ollama model, and the options' window still wins", async () => {
    const other = Object.assign(new MockLanguageModelV3({ provider: 'acme', modelId: 'qwen3:8b' }), {
      settings: { options: { num_ctx: 16_384 } },
    });
    expect((await fallbackEvents({ model: other })).session.config.budget.contextWindow).toBe(128_000);
    const both = await fallbackEvents({
      model: ollamaModel({ options: { num_ctx: 16_384 } }),
      limits: { contextWindow: 8_192 },
    });
    expect(both.session.config.budget.contextWindow).toBe(8_192);
    const bad = await fallbackEvents({ model: ollamaModel({ options: { num_ctx: 'big' } }) });
    expect(bad.seen).toHaveLength(1);
  });

  it('gives the real window of claude-opus-4-6 from the catalog', async () => {
    const { session } = await fallbackEvents({ model: 'claude-opus-4-6' });
    expect(session.config.budget.contextWindow).toBe(1_000_000);
    expect(session.config.modelInfo.prices).toMatchObject({ input: 5, output: 25 });
  });
});
