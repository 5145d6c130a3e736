import { describe, expect, it } from 'vitest';
import { reportedUsage } from '../../src/model/reported-usage.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/memory.js';

/** Every request's usage stays on its reply, so a report can draw each prompt's size later. */
describe('recordStep keeps each request’s usage on its reply', () => {
  it('one request: the reply carries it, normalized; a step without usage carries none', async () => {
    const session = await openSession(memoryStore(), 's', { model: 'm' });
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'hi' }] });
    const { entries } = await session.recordStep({
      message: { role: 'assistant', parts: [{ type: 'text', text: 'hello' }] },
      usage: { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 200 },
    });
    expect(entries[0]!.message.metadata?.usage).toEqual({
      inputTotal: 1200,
      cacheRead: 200,
      cacheWrite: 0,
      output: 30,
      reasoning: 0,
    });
    const next = await session.recordStep({
      message: { role: 'assistant', parts: [{ type: 'text', text: 'more' }] },
    });
    expect(reportedUsage(next.entries[0]!.message)).toBeUndefined();
  });

  it("an AI SDK call of several steps: each step's reply carries its own request's usage", async () => {
    const session = await openSession(memoryStore(), 's', { model: 'm' });
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'list files' }] });
    const call = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'ls', input: {} };
    const result = {
      type: 'tool-result' as const,
      toolCallId: 'c1',
      toolName: 'ls',
      output: { type: 'text' as const, value: 'a.ts' },
    };
    const first = [
      { role: 'assistant' as const, content: [call] },
      { role: 'tool' as const, content: [result] },
    ];
    const messages = [
      ...first,
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'a.ts' }] },
    ];
    const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 5, totalTokens: inputTokens + 5 });
    const { entries } = await session.recordStep({
      response: { messages },
      steps: [
        { usage: usage(500), response: { messages: first.slice(0, 1) } },
        { usage: usage(530), response: { messages } },
      ],
    });
    const replies = entries.filter((e) => e.message.role === 'assistant');
    expect(replies.map((e) => reportedUsage(e.message)?.inputTotal)).toEqual([500, 530]);
  });
});
