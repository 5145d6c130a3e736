import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { canonical } from '../../src/integrations/ai-sdk/cursor.js';
import * as promptIn from '../../src/integrations/ai-sdk/prompt-in.js';
import { memoryStore } from '../../src/store/index.js';
import { textReply, wrapped } from './support.js';

// Every message hashed and every prompt message converted to a condense message is counted.
vi.mock('../../src/integrations/ai-sdk/cursor.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/integrations/ai-sdk/cursor.js')>();
  return { ...original, canonical: vi.fn(original.canonical) };
});
vi.mock('../../src/integrations/ai-sdk/prompt-in.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/integrations/ai-sdk/prompt-in.js')>();
  return {
    ...original,
    userFromV3: vi.fn(original.userFromV3),
    fromV3Assistant: vi.fn(original.fromV3Assistant),
    assistantFromV3: vi.fn(original.assistantFromV3),
    toolResultsOf: vi.fn(original.toolResultsOf),
  };
});

const user = (text: string): LanguageModelV3Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): LanguageModelV3Message => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});

/** An app history of `size` messages after a system prompt, with a tool call and its result every 50. */
function history(size: number): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [{ role: 'system', content: 'You are terse.' }];
  for (let i = 0; prompt.length <= size; i++) {
    prompt.push(user(`question ${i}`));
    if (i % 25 === 0) {
      const id = `call-${i}`;
      prompt.push({
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: id, toolName: 'read', input: { path: `f${i}` } }],
      });
      prompt.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: 'read',
            output: { type: 'text', value: `file ${i}` },
          },
        ],
      });
    }
    prompt.push(assistant(`answer ${i}`));
  }
  return prompt;
}

const conversions = () =>
  vi.mocked(promptIn.userFromV3).mock.calls.length +
  vi.mocked(promptIn.fromV3Assistant).mock.calls.length +
  vi.mocked(promptIn.assistantFromV3).mock.calls.length +
  vi.mocked(promptIn.toolResultsOf).mock.calls.length;

interface CallCost {
  hashed: number;
  converted: number;
  /** Messages of the prompt the model got that are not the very objects it got the call before. */
  renewed: number;
}

/**
 * Steady calls through the middleware on a history of `size` messages: each adds the answer and a
 * user message, as an app does; what each one hashed and converted, in and out.
 */
async function steadyCosts(size: number, calls: number): Promise<CallCost[]> {
  let n = 0;
  // Each prompt as the model got it: the middleware extends the list in place on the next call.
  const sent: LanguageModelV3Prompt[] = [];
  const base = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      sent.push([...prompt]);
      return textReply(`reply ${++n}`);
    },
  });
  const { model } = wrapped(base, memoryStore(), { prune: false, budget: { maxRequestBytes: 0 } });
  const prompt = history(size);
  const call = async (wrappedModel: LanguageModelV3) => {
    const result = await wrappedModel.doGenerate({ prompt: prompt.slice() });
    const text = result.content.find((c) => c.type === 'text');
    prompt.push(assistant(text?.type === 'text' ? text.text : ''));
    prompt.push(user(`go on ${prompt.length}`));
  };
  await call(model); // the first call takes the whole history in
  const costs: CallCost[] = [];
  for (let i = 0; i < calls; i++) {
    const hashed = vi.mocked(canonical).mock.calls.length;
    const converted = conversions();
    await call(model);
    const [before, after] = sent.slice(-2);
    const seen = new Set<unknown>(before);
    costs.push({
      hashed: vi.mocked(canonical).mock.calls.length - hashed,
      converted: conversions() - converted,
      renewed: after!.filter((m) => !seen.has(m)).length,
    });
  }
  return costs;
}

describe('condenseMiddleware: a steady call costs what is new, not the history', () => {
  it('hashes and converts the same few messages at 1,000 and at 10,000', async () => {
    const small = await steadyCosts(1_000, 3);
    const large = await steadyCosts(10_000, 3);
    for (const [i, cost] of small.entries()) {
      const big = large[i]!;
      // In: the new user message and the answer echoed back are converted, nothing older.
      expect(cost.converted).toBe(2);
      expect(big.converted).toBe(cost.converted);
      // Out: the prompt reuses every message converted before; only the system prompt, the
      // request's last message (a merge may replace it) and the new ones are built.
      expect(cost.renewed).toBeLessThanOrEqual(4);
      expect(big.renewed).toBe(cost.renewed);
      // Hashed: the new messages and the same samples of the prefix (near its end, and its first).
      expect(big.hashed).toBe(cost.hashed);
      expect(cost.hashed).toBeLessThanOrEqual(12);
    }
  });
});
