import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, type ModelMessage, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validate } from '../../src/context/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

/** A scripted model: reads a file with a tool on odd calls, answers on even ones; counts like Claude (~2.5 chars/token). */
function scriptedModel() {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      calls++;
      const promptTokens = Math.ceil(JSON.stringify(options.prompt).length / 2.5);
      const usage = {
        inputTokens: { total: promptTokens, noCache: promptTokens, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 20, text: 20, reasoning: 0 },
      };
      if (calls % 2 === 1) {
        return {
          content: [
            {
              type: 'reasoning',
              text: 'I should read it.',
              providerMetadata: { anthropic: { signature: `sig-${calls}` } },
            },
            {
              type: 'tool-call',
              toolCallId: `call-${calls}`,
              toolName: 'read_file',
              input: JSON.stringify({ path: `src/f${calls}.ts` }),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: `Done ${calls}.` }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage,
        warnings: [],
      };
    },
  });
}

const tools = {
  read_file: tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `// ${path}\n${'const x = 1;\n'.repeat(800)}`,
  }),
};

describe('the README loop with the AI SDK', () => {
  it('runs many turns through a small window: steps recorded as one part per call, contexts valid, compactions happen', async () => {
    const model = scriptedModel();
    const session = await openSession(memoryStore(), 'chat', {
      model: 'mock',
      limits: { contextWindow: 24_000, maxOutput: 1_000 },
      system: 'You are a coding agent.',
      tools: { read_file: { description: 'Read a file', parameters: { path: 'string' } } },
    });
    let compactions = 0;
    session.on('compaction:end', () => compactions++);
    for (let turn = 0; turn < 12; turn++) {
      await session.append({
        role: 'user',
        parts: [{ type: 'text', text: `Task ${turn}: read the next file` }],
      });
      for (let step = 0; step < 4; step++) {
        const { messages } = await session.prepare({ format: 'ai-sdk' });
        expect(validate(messages, 'ai-sdk')).toEqual([]);
        const result = await generateText({
          model,
          system: 'You are a coding agent.',
          messages: messages as ModelMessage[],
          tools,
        });
        await session.recordStep({ response: result.response, usage: result.usage });
        if (result.finishReason !== 'tool-calls') break;
      }
    }
    expect(compactions).toBeGreaterThan(0);
    const history = await session.history();
    const toolParts = history.flatMap((e) =>
      e.kind === 'message' ? e.message.parts.filter((p) => p.type === 'tool') : [],
    );
    expect(toolParts.length).toBe(12);
    expect(toolParts.every((p) => p.type === 'tool' && p.state === 'completed')).toBe(true);
    // Reasoning came back with its signature byte for byte.
    const reasoning = history.flatMap((e) =>
      e.kind === 'message' ? e.message.parts.filter((p) => p.type === 'reasoning') : [],
    );
    expect(reasoning[0]).toMatchObject({ providerMetadata: { anthropic: { signature: 'sig-1' } } });
    // After one reported usage the estimate tracks the model's own count closely.
    const { messages } = await session.prepare({ format: 'ai-sdk' });
    const truth = Math.ceil(JSON.stringify(messages).length / 2.5);
    expect(Math.abs(session.estimate().tokens - truth) / truth).toBeLessThan(0.35);
  });
});
