import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, type ModelMessage, type Tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Part } from '../../src/model/parts.js';
import { memoryStore } from '../../src/store/index.js';
import { messageEntries, wrapped } from './support.js';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const response = (content: LanguageModelV3GenerateResult['content']): LanguageModelV3GenerateResult => ({
  content,
  finishReason: { unified: 'stop', raw: undefined },
  usage,
  warnings: [],
});
// A provider tool whose result may come in a later response (as `supportsDeferredResults` declares).
const webSearch = {
  type: 'provider',
  id: 'test.web_search',
  args: {},
  inputSchema: z.object({ q: z.string() }),
  supportsDeferredResults: true,
} as unknown as Tool;

describe('condenseMiddleware: a provider result in a later response', () => {
  it('completes the call the earlier response recorded', async () => {
    const store = memoryStore();
    const model = new MockLanguageModelV3({
      doGenerate: [
        response([
          {
            type: 'tool-call',
            toolCallId: 'ws',
            toolName: 'web_search',
            input: '{"q":"x"}',
            providerExecuted: true,
          },
        ]),
        response([
          {
            type: 'tool-result',
            toolCallId: 'ws',
            toolName: 'web_search',
            result: [{ url: 'https://e.com' }],
          },
          { type: 'text', text: 'Found it.' },
        ]),
        response([{ type: 'text', text: 'You are welcome.' }]),
      ],
    });
    const { model: wrappedModel, sessions, warnings } = wrapped(model, store);
    const tools = { web_search: webSearch };
    const messages: ModelMessage[] = [{ role: 'user', content: 'search' }];
    const first = await generateText({ model: wrappedModel, tools, messages });
    messages.push(...first.response.messages);
    const second = await generateText({ model: wrappedModel, tools, messages });
    expect(second.text).toBe('Found it.');
    const parts = (await messageEntries(store, 'chat')).flatMap((e): Part[] => e.message.parts);
    expect(parts.filter((p) => p.type === 'tool')).toEqual([
      expect.objectContaining({ callId: 'ws', state: 'completed', output: [{ url: 'https://e.com' }] }),
    ]);
    // The next prompt carries that response back (the result in it): recognized, no rewrite.
    messages.push(...second.response.messages, { role: 'user', content: 'thanks' });
    await generateText({ model: wrappedModel, tools, messages });
    expect(sessions.map((s) => s.id)).toEqual(['chat']);
    expect(warnings).toEqual([]);
  });
});
