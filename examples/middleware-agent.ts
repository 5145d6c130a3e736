/**
 * condense as an AI SDK middleware: the app keeps its own growing `messages` and calls
 * generateText as usual; the wrapped model sends condense's view instead (old tool outputs
 * hidden, history compacted when the window fills) and records every step in a SQLite session
 * (`npm run condense -- sessions --db .condense/middleware-example.db`). An app that restarts
 * passes its saved history again; one that starts from an empty history starts a branch.
 *
 *   OPENAI_BASE_URL=http://localhost:11434/v1 MODEL=qwen3:8b npx tsx examples/middleware-agent.ts "Summarize README.md"
 *
 * Environment: OPENAI_BASE_URL (any OpenAI-compatible server: Ollama, vLLM, LM Studio, OpenAI),
 * MODEL (its model id), OPENAI_API_KEY (if the server wants one), CONTEXT_WINDOW (tokens; for
 * Ollama the num_ctx the model runs with; default: the model catalog's figure for MODEL),
 * SESSION (default 'middleware-example'). In your own project, import from 'condense-context' and
 * 'condense-context/ai-sdk' instead of ../src.
 */
import { readdir, readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type ModelMessage, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { z } from 'zod';
import { condenseMiddleware } from '../src/ai-sdk.js';
import { sqliteStore } from '../src/sqlite.js';

const { OPENAI_BASE_URL: baseURL, MODEL: modelId, OPENAI_API_KEY: apiKey } = process.env;
if (!baseURL || !modelId) {
  console.error(
    'Set OPENAI_BASE_URL and MODEL to an OpenAI-compatible server and one of its models, e.g.\n' +
      '  OPENAI_BASE_URL=http://localhost:11434/v1 MODEL=qwen3:8b npx tsx examples/middleware-agent.ts "Summarize README.md"\n' +
      'Optional: OPENAI_API_KEY, CONTEXT_WINDOW (tokens), SESSION (session id).',
  );
  process.exit(2);
}

/** Paths stay inside the working directory: the model chooses them. */
function inside(path: string): string {
  const full = resolve(path);
  if (relative(process.cwd(), full).startsWith('..')) throw new Error(`${path} is outside the project`);
  return full;
}

const tools = {
  list_files: tool({
    description: 'List the entries of a directory of the project',
    inputSchema: z.object({ path: z.string().default('.') }),
    execute: async ({ path }) => (await readdir(inside(path), { withFileTypes: true })).map((e) => e.name),
  }),
  read_file: tool({
    description: 'Read a file of the project',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => readFile(inside(path), 'utf8'),
  }),
};

const contextWindow = Number(process.env.CONTEXT_WINDOW) || undefined;
const middleware = condenseMiddleware({
  store: sqliteStore({ path: '.condense/middleware-example.db' }),
  sessionId: process.env.SESSION ?? 'middleware-example',
  // A window of your own: hold back at most 8,000 tokens (or a quarter of it) for the answer.
  ...(contextWindow ? { limits: { contextWindow, maxOutput: Math.min(8_000, contextWindow / 4) } } : {}),
  onSession: (session) => {
    session.on('compaction:end', (e) =>
      console.error(`[condense] compacted ${e.tokensBefore} → ${e.tokensAfter} tokens`),
    );
    session.on('warning', (w) => console.error(`[condense] ${w.message}`));
  },
  onPrepared: (p) => console.error(`[condense] sending ~${p.tokens.tokens} tokens (${p.decision.reason})`),
});
const model = wrapLanguageModel({
  model: createOpenAICompatible({ name: 'local', baseURL, apiKey })(modelId),
  middleware,
});

// The app's own history, as without condense: every turn appends the request and the response.
const messages: ModelMessage[] = [];
const tasks =
  process.argv.length > 2 ? process.argv.slice(2) : ['List the project files', 'Summarize README.md'];
for (const task of tasks) {
  messages.push({ role: 'user', content: task });
  try {
    const result = await generateText({
      model,
      system: 'You are a careful coding agent. Read files before answering.',
      messages,
      tools,
      stopWhen: stepCountIs(10),
    });
    messages.push(...result.response.messages);
    console.log(`\n> ${task}\n${result.text}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`The call to ${baseURL} (model ${modelId}) failed: ${reason}`);
    process.exit(1);
  }
}
