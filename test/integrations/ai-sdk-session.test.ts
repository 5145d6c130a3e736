import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { calibrationAfterCompaction, updateCalibration } from '../../src/tokens/calibration.js';
import { scriptedAgent } from './harness.js';

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('AI SDK messages and tools in a session', () => {
  it('append takes ModelMessages: a call and its result become one part; a later tool message completes it', async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append([
      {
        role: 'user',
        content: [text('Read a.ts'), { type: 'image', image: 'aGVsbG8=', mediaType: 'image/png' }],
      },
      {
        role: 'assistant',
        content: [
          text('Reading.'),
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'A' } },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'read', input: { path: 'b.ts' } }],
      },
    ] satisfies ModelMessage[]);
    const late: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'read',
          output: { type: 'error-text', value: 'ENOENT' },
        },
      ],
    };
    await session.append(late);
    const parts = (await session.history()).flatMap((e): unknown[] =>
      e.kind === 'message' ? e.message.parts : [],
    );
    expect(parts).toMatchObject([
      { type: 'text', text: 'Read a.ts' },
      { type: 'file', mediaType: 'image/png', data: 'aGVsbG8=' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool', callId: 'c1', state: 'completed', output: 'A' },
      { type: 'tool', callId: 'c2', state: 'error', error: 'ENOENT' },
    ]);
    // A result for a call the session is not waiting for is refused, and nothing is written.
    const before = (await session.history()).length;
    await expect(session.append([{ role: 'user', content: 'again' }, late])).rejects.toThrow(/c2/);
    expect((await session.history()).length).toBe(before);
  });

  it('counts an AI SDK tool set by the JSON schema the provider gets, descriptions included', async () => {
    const description = 'the path of the file to read, relative to the root of the repository';
    const tools = {
      read_file: tool({
        description: 'Read a file',
        inputSchema: z.object({ path: z.string().describe(description) }),
      }),
    };
    const counted = await openSession(memoryStore(), 'a', { tools });
    const none = await openSession(memoryStore(), 'b');
    const overhead = counted.overheadRaw - none.overheadRaw;
    // The schema as sent: a few hundred characters, not zod's internals (thousands when stringified).
    expect(overhead).toBeGreaterThan(description.length / 4);
    expect(overhead).toBeLessThan(150);
    expect(JSON.stringify(counted.sentContext.tools)).toContain(description);
  });

  it('takes an AI SDK model object: its id gives the limits and it writes the summaries', async () => {
    let summaries = 0;
    const model = new MockLanguageModelV3({
      modelId: 'claude-sonnet-4-5',
      doGenerate: async () => {
        summaries++;
        return {
          content: [text('The user asked for a long task; files were read.')],
          finishReason: { unified: 'stop', raw: 'end_turn' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 10, text: 10, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const session = await openSession(memoryStore(), 's', { model });
    expect(session.config.model).toBe('claude-sonnet-4-5');
    expect(session.config.budget.contextWindow).toBe(200_000);
    for (let i = 0; i < 6; i++) {
      await session.append({ role: 'user', content: `request ${i} ${'x'.repeat(400)}` });
      await session.append({ role: 'assistant', content: `answer ${i} ${'y'.repeat(400)}` });
    }
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    expect(summaries).toBeGreaterThan(0);
    expect(session.config.summarizer.name).not.toBe('extractive');
  });

  it('recordStep(result) learns from every step of a multi-step call', async () => {
    const agent = scriptedAgent({ toolSteps: [4, 4] });
    const session = await openSession(memoryStore(), 's', { model: 'mock-2.5cpt', tools: agent.tools });
    agent.startTurn(0);
    await session.append({ role: 'user', content: 'Read four files.' });
    const { messages } = await session.prepare();
    const { model, tools } = agent;
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
    await session.recordStep(result);
    const calibration = session.record.state.calibration['mock-2.5cpt']!;
    expect(calibration.samples).toBe(5);
    // chars/2.5 against chars/4: the ratio is learned, nothing is taken for overhead.
    expect(calibration.ratio).toBeGreaterThan(1.4);
    expect(calibration.ratio).toBeLessThan(1.8);
    expect(Math.abs(calibration.residual)).toBeLessThan(300);
    // The last request is the estimate's base; only the final answer came after it.
    expect(session.record.state.lastUsage?.usage.inputTotal).toBe(agent.requests.at(-1)!.tokens);
  });
});

describe('calibration across a compaction', () => {
  it('a difference one request had does not survive a compaction as overhead', () => {
    let c = updateCalibration(undefined, { reportedInput: 16_000 + 2_000, logRaw: 10_000, overheadRaw: 0 });
    c = updateCalibration(c, { reportedInput: 32_000 + 2_000, logRaw: 20_000, overheadRaw: 0 });
    // One request carried 9,000 tokens the log did not attribute to it.
    c = updateCalibration(c, { reportedInput: 33_600 + 2_000 + 9_000, logRaw: 21_000, overheadRaw: 0 });
    expect(c.residual).toBeGreaterThan(5_000);
    const after = calibrationAfterCompaction(c);
    expect(after.residual).toBeLessThan(2_500);
    expect(after.residual).toBeGreaterThan(1_000);
    expect(after.ratio).toBe(c.ratio);
  });
});
