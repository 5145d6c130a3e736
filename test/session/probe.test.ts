import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { openSession, presetOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { turn } from './helpers.js';

describe('seed 004 recount by probe (A004-09)', () => {
  it('summarizes with the seed prompt, then recounts with a 16-token request', async () => {
    const calls: LanguageModelV3CallOptions[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        calls.push(options);
        return {
          content: [
            { type: 'text', text: options.maxOutputTokens === 16 ? 'ok' : '1. Goals: fix the parser.' },
          ],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 777, noCache: 777, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 3, text: 3, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const session = await openSession(memoryStore(), 's', {
      ...presetOptions('seed-004', { summarizerModel: model }),
      model: 'gpt-4o',
    });
    await session.append(turn('Fix the parser in src/parse.ts', 3, 4_000));
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    const prompt = JSON.stringify(calls[0]!.prompt);
    expect(prompt).toContain('Provide a detailed but concise summary of our conversation');
    expect(calls.at(-1)!.maxOutputTokens).toBe(16);
    expect(session.estimate()).toMatchObject({ tokens: 777 });
  });
});
