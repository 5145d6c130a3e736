/**
 * The middleware with a `model`: the model writes the summaries (the same rule as openSession: it
 * summarizes unless a summarizer is named), and when its call fails the offline summary is
 * written instead, with a warning — the conversation goes on either way.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { extractiveSummarizer } from '../../src/compact/index.js';
import type { CompactionEntry } from '../../src/model/entry.js';
import { memoryStore } from '../../src/store/index.js';
import { runTurns, scriptedAgent } from './harness.js';
import { wrapped } from './support.js';

const LLM_SUMMARY = 'The user asked for reviews of the modules of each part; all were read and reported.';

function summarizerModel(fail: boolean) {
  return new MockLanguageModelV3({
    modelId: 'mock-summarizer',
    doGenerate: async () => {
      if (fail) throw new Error('401 Unauthorized: invalid x-api-key');
      return {
        content: [{ type: 'text', text: LLM_SUMMARY }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 1_000, noCache: 1_000, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 30, text: 30, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

async function compacted(options: Parameters<typeof wrapped>[2]) {
  const agent = scriptedAgent({ outputTokens: [1_500, 3_000] });
  const store = memoryStore();
  const fallbacks: string[] = [];
  const { model, sessions } = wrapped(agent.model, store, {
    limits: { contextWindow: 24_000, maxOutput: 2_000 },
    ...options,
    onSession: (session) => session.on('compaction:fallback', (e) => fallbacks.push(e.detail)),
  });
  await runTurns({ agent, model, turns: 8 });
  const pivots = (await store.loadFrom('chat', 0)).filter(
    (e): e is CompactionEntry => e.kind === 'compaction',
  );
  return { pivots, fallbacks, sessions };
}

describe('condenseMiddleware with a model', () => {
  it('the model writes the summary', async () => {
    const summarizer = summarizerModel(false);
    const { pivots, fallbacks } = await compacted({ model: summarizer });
    expect(pivots.length).toBeGreaterThan(0);
    expect(pivots[0]!.pivot).toMatchObject({ summarizer: 'llm', model: 'mock-summarizer' });
    expect(pivots[0]!.pivot.summary).toContain(LLM_SUMMARY);
    expect(summarizer.doGenerateCalls.length).toBeGreaterThanOrEqual(pivots.length);
    expect(fallbacks).toEqual([]);
  });

  it('falls back to the offline summary when the model’s call fails, and says so', async () => {
    const summarizer = summarizerModel(true);
    const { pivots, fallbacks } = await compacted({ model: summarizer });
    expect(pivots.length).toBeGreaterThan(0);
    expect(summarizer.doGenerateCalls.length).toBeGreaterThan(0);
    for (const pivot of pivots) {
      expect(pivot.pivot.summarizer).toBe('extractive');
      expect(pivot.pivot.summary).not.toContain(LLM_SUMMARY);
      expect(pivot.pivot.summary).toMatch(/Task \d/); // the user's requests, kept by the offline summary
    }
    expect(fallbacks).toHaveLength(pivots.length);
    expect(fallbacks[0]).toMatch(/401 Unauthorized/);
  });

  it('a named summarizer is used as given: the model does not summarize', async () => {
    const summarizer = summarizerModel(false);
    const { pivots } = await compacted({
      model: summarizer,
      compaction: { summarizer: extractiveSummarizer() },
    });
    expect(pivots.length).toBeGreaterThan(0);
    expect(summarizer.doGenerateCalls).toHaveLength(0);
  });
});
