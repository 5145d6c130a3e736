/**
 * The README's agent loop, typechecked with the project: an agent on any OpenAI-compatible server
 * (Ollama, vLLM, LM Studio, OpenAI) whose conversation condense keeps inside the window.
 *   OPENAI_BASE_URL=http://localhost:11434/v1 MODEL=qwen3:8b CONTEXT_WINDOW=32768 npx tsx examples/agent-loop.ts
 * CONTEXT_WINDOW: tokens (for Ollama, the num_ctx the model runs with); default: the model
 * catalog's figure for MODEL, or 128,000 with a warning for a model it does not know.
 * In your own project, import from 'condense-context' instead of ../src.
 */
import { readFile } from 'node:fs/promises';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, tool } from 'ai';
import { z } from 'zod';
import { openSession } from '../src/index.js';
import { sqliteStore } from '../src/sqlite.js';

const provider = createOpenAICompatible({
  name: 'local',
  baseURL: process.env.OPENAI_BASE_URL ?? 'http://localhost:11434/v1',
  apiKey: process.env.OPENAI_API_KEY,
});
const model = provider(process.env.MODEL ?? 'qwen3:8b');
const tools = {
  read_file: tool({
    description: 'Read a file of the project',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => readFile(path, 'utf8'),
  }),
};

const contextWindow = Number(process.env.CONTEXT_WINDOW) || undefined;
const session = await openSession(sqliteStore(), 'example', {
  model: process.env.MODEL,
  ...(contextWindow ? { limits: { contextWindow } } : {}),
  system: 'You are a careful coding agent.',
  tools: { read_file: { path: 'string' } },
});
await session.append({
  role: 'user',
  parts: [{ type: 'text', text: process.argv[2] ?? 'Summarize README.md' }],
});
for (;;) {
  const { system, messages } = await session.prepare({ format: 'ai-sdk' });
  try {
    const step = await generateText({ model, system, messages, tools });
    await session.recordStep({ response: step.response, usage: step.usage });
    if (step.finishReason !== 'tool-calls') {
      console.log(step.text);
      break;
    }
  } catch (error) {
    // A context-overflow error compacts once and asks for one retry; anything else is ours.
    if (!(await session.recordError(error)).retry) throw error;
  }
}
