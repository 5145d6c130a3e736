import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAiSdkSystem, toAiSdk } from '../../src/context/index.js';
import { historyArb } from '../support/arbitraries.js';

/** A model that accepts any URL natively (no downloads) and records the prompt it got. */
function mockModel() {
  return new MockLanguageModelV3({
    supportedUrls: { '*/*': [/.*/] },
    doGenerate: {
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    },
  });
}

describe('the AI SDK itself accepts toAiSdk output', () => {
  // Cross-check with the SDK's own prompt standardization (schema, MissingToolResultsError),
  // independent of condense's validator.
  it('generateText runs on every generated history', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb(), async (history) => {
        const model = mockModel();
        const { system, messages } = splitAiSdkSystem(toAiSdk(history));
        await generateText({ model, system, messages });
        const prompt = model.doGenerateCalls[0]!.prompt;
        const calls = prompt.flatMap((m) =>
          m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call') : [],
        );
        const results = prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
        expect(results.length).toBe(calls.length);
      }),
      { numRuns: 150 },
    );
  });
});
