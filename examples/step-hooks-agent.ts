/**
 * A coding agent whose multi-step calls condense takes part in: every step is recorded with its own
 * usage as it finishes, and every request is checked (and compacted if needed) before it is sent,
 * so a long tool loop inside one `generateText` call never overflows. Any OpenAI-compatible server:
 *   OPENAI_BASE_URL=http://localhost:11434/v1 MODEL=qwen3:8b CONTEXT_WINDOW=32768 npx tsx examples/step-hooks-agent.ts "task"
 * CONTEXT_WINDOW: tokens (for Ollama, the num_ctx the model runs with); default: the model
 * catalog's figure for MODEL, or 128,000 with a warning for a model it does not know.
 * In your own project, import from 'condense-context' and 'condense-context/ai-sdk' instead of ../src.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { stepHooks } from '../src/ai-sdk.js';
import { openSession } from '../src/index.js';
import { sqliteStore } from '../src/sqlite.js';

const provider = createOpenAICompatible({
  name: 'local',
  baseURL: process.env.OPENAI_BASE_URL ?? 'http://localhost:11434/v1',
  apiKey: process.env.OPENAI_API_KEY,
});
const model = provider(process.env.MODEL ?? 'qwen3:8b');
const tools = {
  list_files: tool({
    description: 'List the files of a directory of the project',
    inputSchema: z.object({ dir: z.string().describe('directory, relative to the project root') }),
    execute: async ({ dir }) => (await readdir(dir)).join('\n'),
  }),
  read_file: tool({
    description: 'Read a file of the project',
    inputSchema: z.object({ path: z.string().describe('file path, relative to the project root') }),
    execute: async ({ path }) => readFile(path, 'utf8'),
  }),
};

// The model object gives the limits (by its id) and writes the summaries when the window fills.
const contextWindow = Number(process.env.CONTEXT_WINDOW) || undefined;
const session = await openSession(sqliteStore(), 'step-hooks-example', {
  model,
  ...(contextWindow ? { limits: { contextWindow } } : {}),
  system: 'You are a careful coding agent. Explore with the tools, then answer.',
  tools,
});
await session.append({ role: 'user', content: process.argv[2] ?? 'What does this project do?' });
const { system, messages } = await session.prepare();
const result = await generateText({
  model,
  system,
  messages,
  tools,
  stopWhen: stepCountIs(25),
  ...stepHooks(session),
});
console.log(result.text);
console.error(`next prompt ≈ ${session.estimate().tokens} tokens (${session.estimate().method})`);
