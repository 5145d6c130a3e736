/**
 * Seed 004 (context compaction middleware) scenarios with the seed-004 preset: ContextTokens =
 * prompt + completion of the last call against an absolute 200,000 with ≥ (A004-01), threshold 0
 * off, the history cleaned (missing tool results filled), the seven-section prompt, and the history
 * replaced by [system, user(summary + "Last request from user was: …")].
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SEED_004_PROMPT } from '../../src/compact/index.js';
import type { OpenAIChatMessage } from '../../src/context/index.js';
import type { AssistantMessage } from '../../src/model/index.js';
import { openSession, presetOptions, type Session, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { tempDir } from '../store/sqlite-helpers.js';
import { act, expectValid, mockModel, promptText, reply, say, toolRun, user } from './support.js';

const SYSTEM = 'You are a coding agent.\n\nMEMORY.md: the user prefers pnpm.';
const REQUEST = 'Fix the flaky test in src/queue.test.ts, and never disable it';
const LLM_SUMMARY = '1. Goals: fix the flaky queue test.\n7. Next: rerun pnpm test queue.';
const options = (extra: Parameters<typeof presetOptions>[1] = {}): SessionOptions => ({
  ...presetOptions('seed-004', extra),
  model: 'claude-sonnet-4-20250514',
  system: SYSTEM,
});

/** A step with parallel calls: one finished, one that never returned. */
const step: AssistantMessage = {
  role: 'assistant',
  parts: [
    { type: 'text', text: 'Reading the test and running it.' },
    {
      type: 'tool',
      callId: 'call_read',
      name: 'read_file',
      input: { path: 'src/queue.test.ts' },
      state: 'completed',
      output: 'it("drains", ...)',
    },
    {
      type: 'tool',
      callId: 'call_run',
      name: 'bash',
      input: { command: 'pnpm test queue' },
      state: 'pending',
    },
  ],
};

/**
 * The request, then 196,000 tokens of reads, then `step` with a usage the log explains (prompt =
 * the local count): prompt + completion = 200,000.
 */
async function nearlyFull(session: Session): Promise<string | null> {
  await session.append(user(REQUEST));
  for (let i = 0; i < 4; i++) {
    await session.append(act(toolRun('read_file', { path: `src/queue/part${i}.ts` }, 49_000)));
  }
  const prompt = session.estimate().tokens;
  const result = await session.recordStep({
    message: step,
    usage: { prompt_tokens: prompt, completion_tokens: 200_000 - prompt },
  });
  return result.markerId;
}

describe('seed 004: ContextTokens ≥ 200,000 after each call', () => {
  it.each([
    [199_000, 1_000, true],
    [199_000, 999, false],
    [200_000, 0, true],
    [100_000, 100_000, true],
  ])('prompt %i + completion %i → compact: %s', async (prompt, completion, compact) => {
    const session = await openSession(memoryStore(), 's', options());
    await session.append(user(REQUEST));
    const result = await session.recordStep({
      message: say('Looking.'),
      usage: { prompt_tokens: prompt, completion_tokens: completion },
    });
    expect(result.decision).toMatchObject({
      compact,
      tokens: prompt + completion,
      limit: 200_000,
      limitKind: 'absolute',
      comparison: '>=',
    });
    expect(result.markerId !== null).toBe(compact);
  });

  it('threshold 0 disables auto-compaction', async () => {
    const base = options();
    const session = await openSession(memoryStore(), 's', {
      ...base,
      budget: { ...base.budget, absolute: 0 },
    });
    await session.append(user(REQUEST));
    const result = await session.recordStep({
      message: say('Looking.'),
      usage: { prompt_tokens: 10_000_000, completion_tokens: 1 },
    });
    expect(result.decision).toMatchObject({ compact: false, reason: 'disabled' });
    expect((await session.prepare()).compaction).toBeNull();
  });
});

describe('seed 004: compaction', () => {
  it('fills missing tool results before and in the summary input; nothing is left unanswered', async () => {
    const session = await openSession(memoryStore(), 's', options());
    await session.append([user(REQUEST), step]);
    for (const format of ['openai', 'ai-sdk', 'anthropic', 'gemini'] as const) {
      expectValid((await session.prepare({ format })).messages, format);
    }
    const sent = (await session.prepare({ format: 'openai' })).messages as OpenAIChatMessage[];
    const results = sent.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(['call_read', 'call_run']);
    expect(results[1]?.content).toContain('Tool no response');
  });

  it('replaces the history by [system, user(summary + "Last request from user was: …")]', async () => {
    const model = mockModel((call) => (call.maxOutputTokens === 16 ? 'ok' : LLM_SUMMARY));
    const session = await openSession(memoryStore(), 's', options({ summarizerModel: model }));
    expect(await nearlyFull(session)).not.toBeNull();

    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction?.status).toBe('compacted');
    const messages = prepared.messages as OpenAIChatMessage[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toBe(SYSTEM);
    // Summary = LLM text + suffix, nothing else.
    expect(messages[1]?.content).toBe(`${LLM_SUMMARY}\n\nLast request from user was: ${REQUEST}`);
    // Seed 004 §7: recounted by a 16-token probe.
    expect(model.doGenerateCalls.at(-1)?.maxOutputTokens).toBe(16);
    for (const format of ['ai-sdk', 'anthropic', 'gemini'] as const) {
      expectValid((await session.prepare({ format })).messages, format);
    }
  });

  // Seed 004 §7 counts `a.messages` (system prompt first) and `a.tools`. presetOptions() builds its
  // probe before it knows the session's system prompt, so the probe request omits it and the
  // recount comes out lower than the prompt the agent really sends.
  it('the recount probe sends the system prompt with the compacted history', async () => {
    const calls: LanguageModelV3CallOptions[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (call) => {
        calls.push(call);
        return reply('1. Goals: fix the flaky queue test.');
      },
    });
    const session = await openSession(memoryStore(), 's', options({ summarizerModel: model }));
    await session.append([user(REQUEST), step, act(toolRun('read_file', { path: 'src/queue.ts' }, 5_000))]);
    expect((await session.compact()).status).toBe('compacted');
    const probe = calls.at(-1)!;
    expect(probe.maxOutputTokens).toBe(16);
    expect(probe.prompt[0]).toEqual({ role: 'system', content: SYSTEM });
  });

  it('with the offline summarizer: the seven sections, then the last request verbatim', async () => {
    const session = await openSession(memoryStore(), 's', options());
    expect(await nearlyFull(session)).not.toBeNull();
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction?.status).toBe('compacted');
    const messages = prepared.messages as OpenAIChatMessage[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    const summary = String(messages[1]?.content);
    expect(summary).toContain('5. Active Work and Last Actions (CRITICAL)');
    expect(summary).toContain(`Last request from user was: ${REQUEST}`);
    expect(summary).not.toContain('"tool_calls"');
  });
});

const agentTools = {
  read_file: tool({ description: 'Read a file of the project', inputSchema: z.object({ path: z.string() }) }),
  bash: tool({ description: 'Run a shell command', inputSchema: z.object({ command: z.string() }) }),
};

/** The seed-004 preset with `model` summarizing (and probing), the agent's system prompt and tools. */
async function agentSession(model: MockLanguageModelV3) {
  return openSession(memoryStore(), 's', { ...options({ summarizerModel: model }), tools: agentTools });
}

/** A finished read big enough for a compaction to shrink the context. */
const bulk = () => act(toolRun('read_file', { path: 'src/queue.ts' }, 2_000));

const summaryCalls = (model: MockLanguageModelV3) =>
  model.doGenerateCalls.filter((c) => c.maxOutputTokens !== 16);

describe('seed 004 §2 Token Tracking: "ContextTokens = usage.PromptTokens + usage.CompletionTokens"', () => {
  it('the completion counts whole, reasoning included: 199,000 + 1,000 (900 of them reasoning) compacts', async () => {
    const session = await openSession(memoryStore(), 's', options());
    await session.append(user(REQUEST));
    const result = await session.recordStep({
      message: say('Looking.'),
      usage: {
        prompt_tokens: 199_000,
        completion_tokens: 1_000,
        completion_tokens_details: { reasoning_tokens: 900 },
      },
    });
    expect(result.decision).toMatchObject({ compact: true, tokens: 200_000 });
  });
});

describe('seed 004 §6 Message Cleaning: cleaning before the summary call', () => {
  it('"Missing responses are filled with "Tool no response"", then "Understood.", then the prompt as a user message, under the agent\'s system prompt and tools', async () => {
    const model = mockModel((call) => (call.maxOutputTokens === 16 ? 'ok' : LLM_SUMMARY));
    const session = await agentSession(model);
    await session.append([user(REQUEST), step]);
    expect((await session.compact()).status).toBe('compacted');
    const [call] = summaryCalls(model);
    expect(call!.prompt).toMatchObject([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: [{ type: 'text', text: REQUEST }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading the test and running it.' },
          { type: 'tool-call', toolCallId: 'call_read', toolName: 'read_file' },
          { type: 'tool-call', toolCallId: 'call_run', toolName: 'bash' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_read',
            output: { type: 'text', value: 'it("drains", ...)' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_run',
            output: { type: 'error-text', value: 'Tool no response' },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Understood.' }] },
      { role: 'user', content: [{ type: 'text', text: SEED_004_PROMPT }] },
    ]);
    expect(call!.prompt).toHaveLength(6);
    // The tools exactly as the agent's own call sends them, with tool use off (A004-02).
    const agent = mockModel('ok');
    const { system, messages } = await session.prepare();
    await generateText({ model: agent, system, messages, tools: agentTools });
    expect(call!.tools).toEqual(agent.doGenerateCalls[0]!.tools);
    expect(call!.tools?.map((t) => t.name)).toEqual(['read_file', 'bash']);
    expect(call!.toolChoice).toEqual({ type: 'none' });
  });

  it('a history that does not end on tool results gets no "Understood."', async () => {
    const model = mockModel((call) => (call.maxOutputTokens === 16 ? 'ok' : LLM_SUMMARY));
    const session = await agentSession(model);
    await session.append([
      user(REQUEST),
      act(toolRun('read_file', { path: 'src/queue.ts' }, 50)),
      say('Fixed.'),
    ]);
    await session.compact();
    const prompt = summaryCalls(model)[0]!.prompt;
    expect(prompt.slice(-2)).toMatchObject([
      { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
      { role: 'user', content: [{ type: 'text', text: SEED_004_PROMPT }] },
    ]);
  });
});

describe('seed 004 §3 step 2: "Find last user message (preserve intent)"', () => {
  const summaryOf = async (session: Session) => {
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    return outcome.status === 'compacted' ? outcome.summary : '';
  };

  it('"summary += "\\n\\nLast request from user was: " + lastUserMsg": the LLM text and that suffix, nothing else', async () => {
    const session = await agentSession(mockModel(LLM_SUMMARY));
    await session.append([user('Read the queue first'), say('Read.'), user(REQUEST), bulk(), say('On it.')]);
    expect(await summaryOf(session)).toBe(`${LLM_SUMMARY}\n\nLast request from user was: ${REQUEST}`);
  });

  it('an image-only newest user message: TextContent() is empty, so no suffix', async () => {
    const session = await agentSession(mockModel(LLM_SUMMARY));
    await session.append([
      user(REQUEST),
      say('On it.'),
      { role: 'user', parts: [{ type: 'file', mediaType: 'image/png', data: 'aGVsbG8=' }] },
      say('I see the failing run in the screenshot.'),
    ]);
    expect(await summaryOf(session)).toBe(LLM_SUMMARY);
  });

  it('no user message: no suffix', async () => {
    const session = await agentSession(mockModel(LLM_SUMMARY));
    await session.append([
      say('Starting the nightly run.'),
      act(toolRun('bash', { command: 'pnpm test' }, 50)),
    ]);
    expect(await summaryOf(session)).toBe(LLM_SUMMARY);
  });

  it('after one compaction the newest user message is the summary itself', async () => {
    const model = mockModel((call, n) => (call.maxOutputTokens === 16 ? 'ok' : `Summary ${n}.`));
    const session = await agentSession(model);
    await session.append([user(REQUEST), bulk(), say('On it.')]);
    const first = await summaryOf(session);
    expect(first).toBe(`Summary 1.\n\nLast request from user was: ${REQUEST}`);
    await session.append([bulk(), say('Still on it.')]);
    const next = model.doGenerateCalls.length + 1; // the mock numbers every call, probes included
    expect(await summaryOf(session)).toBe(`Summary ${next}.\n\nLast request from user was: ${first}`);
  });
});

describe('seed 004 §3 step 7: "Reset session state (new interaction log, reset middleware)"', () => {
  it('each compaction gives the session a new interactionId, kept across reopening', async () => {
    const store = memoryStore();
    const opts = { ...options({ summarizerModel: mockModel(LLM_SUMMARY) }), tools: agentTools };
    const session = await openSession(store, 's', opts);
    await session.append([user(REQUEST), bulk(), say('On it.')]);
    const ids = [session.interactionId];
    await session.compact();
    ids.push(session.interactionId);
    await session.append([bulk(), say('Next step.')]);
    await session.compact();
    ids.push(session.interactionId);
    expect(new Set(ids).size).toBe(3);
    expect((await openSession(store, 's', opts)).interactionId).toBe(ids[2]);
  });
});

describe('seed 004 §3 Compaction Process on `[system]` alone: "messages = [system, user(summary)]"', () => {
  it('the summary call is the system prompt and the prompt; the history becomes [system, user(summary)], on a SQLite store', async () => {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    try {
      const model = mockModel((call) => (call.maxOutputTokens === 16 ? 'ok' : LLM_SUMMARY));
      const session = await openSession(store, 's', {
        ...options({ summarizerModel: model }),
        tools: agentTools,
      });
      const outcome = await session.compact();
      expect(outcome.status).toBe('compacted');
      // No user message before the prompt: no "Last request from user was: …".
      expect(outcome.status === 'compacted' && outcome.summary).toBe(LLM_SUMMARY);
      const [call] = summaryCalls(model);
      expect(call!.prompt.map((m) => [m.role, promptText(m)])).toEqual([
        ['system', SYSTEM],
        ['user', SEED_004_PROMPT],
      ]);
      expect((await session.prepare({ format: 'openai' })).messages).toEqual([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: LLM_SUMMARY },
      ]);

      // The pivot summarized nothing and kept nothing; the agent_turns view reads it.
      const lineage = await session.lineage();
      const [pivot] = lineage.turns().filter((turn) => turn.turnType === 'compaction');
      expect(lineage.getCoverage(pivot!.id)).toMatchObject({ summarizedEntryIds: [], keptEntryIds: [] });
      const raw = new Database(t.dbPath, { readonly: true });
      try {
        expect(
          raw.prepare('SELECT turn_type, summarized_through_turn_id = id AS self FROM agent_turns').all(),
        ).toEqual([{ turn_type: 'compaction', self: 1 }]);
      } finally {
        raw.close();
      }
    } finally {
      await store.close();
      t.remove();
    }
  });

  it('the default has nothing to compact there', async () => {
    const session = await openSession(memoryStore(), 's', { model: mockModel(LLM_SUMMARY), system: SYSTEM });
    expect(await session.compact()).toMatchObject({ status: 'skipped' });
  });
});
