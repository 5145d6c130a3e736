import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { APICallError, generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { runTurns, scriptedAgent } from './harness.js';
import { messageEntries, promptJson, promptText, texts, wrapped } from './support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('condenseMiddleware: taking the app’s messages in', () => {
  it('is transparent below the window: the model gets what it would get without the middleware', async () => {
    const plain = scriptedAgent({ seed: 3 });
    await runTurns({ agent: plain, model: plain.model, turns: 4 });
    const agent = scriptedAgent({ seed: 3 });
    const { model } = wrapped(agent.model, memoryStore(), { prune: false });
    await runTurns({ agent, model, turns: 4 });
    expect(agent.requests.length).toBe(plain.requests.length);
    expect(agent.requests.map((r) => promptJson(r.prompt))).toEqual(
      plain.requests.map((r) => promptJson(r.prompt)),
    );
  });

  it('stores every message once although the app resends its whole history; a call and its result are one part', async () => {
    const store = memoryStore();
    const agent = scriptedAgent({ seed: 5 });
    const { model, sessions } = wrapped(agent.model, store);
    let steps = 0;
    await runTurns({ agent, model, turns: 5, generateOptions: { onStepFinish: () => void steps++ } });
    expect(steps).toBe(agent.requests.length);
    const entries = await messageEntries(store, 'chat');
    expect(sessions.map((s) => s.id)).toEqual(['chat']);
    expect(texts(entries, 'user')).toEqual([0, 1, 2, 3, 4].map((t) => expect.stringContaining(`Task ${t}:`)));
    // One assistant entry per model response, nothing else.
    expect(entries.filter((e) => e.message.role === 'assistant').length).toBe(agent.requests.length);
    const tools = entries.flatMap((e) => e.message.parts.filter((p) => p.type === 'tool'));
    expect(tools.length).toBe(agent.requests.length - 5);
    expect(
      tools.every((p) => p.type === 'tool' && p.state === 'completed' && String(p.output).length > 1000),
    ).toBe(true);
    expect(new Set(tools.map((p) => p.type === 'tool' && p.callId)).size).toBe(tools.length);
  });

  it('completes parallel calls of one step in their assistant entry', async () => {
    const calls = (ids: string[]): LanguageModelV3GenerateResult => ({
      content: ids.map((id) => ({
        type: 'tool-call',
        toolCallId: id,
        toolName: 'read_file',
        input: `{"path":"${id}"}`,
      })),
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage: {
        inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
      warnings: [],
    });
    const done: LanguageModelV3GenerateResult = {
      ...calls([]),
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: undefined },
    };
    const store = memoryStore();
    const { model, warnings } = wrapped(
      new MockLanguageModelV3({ doGenerate: [calls(['a', 'b', 'c']), done] }),
      store,
    );
    const { tools } = scriptedAgent();
    await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'read three files' });
    const entries = await messageEntries(store, 'chat');
    expect(entries.map((e) => e.message.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(entries[1]!.message.parts.map((p) => p.type === 'tool' && [p.callId, p.state])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
      ['c', 'completed'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('a failed call retried with the same messages stores them once, also across a restart (SQLite)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'condense-mw-'));
    dirs.push(dir);
    const path = join(dir, 'condense.db');
    const agent = scriptedAgent({ seed: 9 });
    let store = sqliteStore({ path });
    let messages = await runTurns({ agent, model: wrapped(agent.model, store).model, turns: 3 });

    // The next call fails after the middleware took the new user message in; then the process restarts.
    const failing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('connection reset');
      },
    });
    messages = [...messages, { role: 'user', content: 'Task 3: review the modules of part 3 and report.' }];
    await expect(
      generateText({ model: wrapped(failing, store).model, messages, tools: agent.tools, maxRetries: 0 }),
    ).rejects.toThrow('connection reset');
    await store.close();

    store = sqliteStore({ path });
    const { model, sessions } = wrapped(agent.model, store);
    agent.startTurn(3);
    const result = await generateText({
      model,
      messages,
      tools: agent.tools,
      stopWhen: stepCountIs(10),
    });
    messages = [...messages, ...result.response.messages];
    await runTurns({ agent, model, turns: 1, firstTurn: 4, messages });
    const entries = await messageEntries(store, 'chat');
    expect(sessions.map((s) => s.id)).toEqual(['chat']);
    expect(texts(entries, 'user').map((t) => t.slice(0, 7))).toEqual([
      'Task 0:',
      'Task 1:',
      'Task 2:',
      'Task 3:',
      'Task 4:',
    ]);
    expect(entries.filter((e) => e.message.role === 'assistant').length).toBe(agent.requests.length);
    expect((await store.listSessions()).map((s) => s.id)).toEqual(['chat']);
    await store.close();
  });
});

describe('condenseMiddleware: an app that rewrites its history', () => {
  it('continues in a branch: the old session is untouched, the model sees the rewritten history, a restart follows', async () => {
    const store = memoryStore();
    const agent = scriptedAgent({ seed: 11, toolSteps: [1, 1] });
    const first = wrapped(agent.model, store);
    const messages = await runTurns({ agent, model: first.model, turns: 2 });
    const before = (await store.loadFrom('chat', 0)).length;

    const edited: ModelMessage[] = [
      { role: 'user', content: 'Task 0: review ONLY the tests of part 0.' },
      ...messages.slice(1),
    ];
    const afterEdit = await runTurns({ agent, model: first.model, turns: 1, firstTurn: 2, messages: edited });
    expect((await store.loadFrom('chat', 0)).length).toBe(before);
    expect(first.sessions.map((s) => s.id)).toEqual(['chat', 'chat~1']);
    expect(first.warnings).toEqual([expect.stringContaining("continuing in session 'chat~1'")]);
    const seen = promptText(agent.requests.at(-1)!.prompt);
    expect(seen).toContain('review ONLY the tests');
    expect(seen).not.toContain('Task 0: review the modules');
    expect((await store.getSession('chat~1'))?.metadata).toMatchObject({ branchOf: 'chat' });

    // A restart resumes in the branch, and its history is the app's: each message once.
    const again = wrapped(agent.model, store);
    await runTurns({ agent, model: again.model, turns: 1, firstTurn: 3, messages: afterEdit });
    expect(again.sessions.map((s) => s.id)).toEqual(['chat~1']);
    const branch = await messageEntries(store, 'chat~1');
    expect(texts(branch, 'user').map((t) => t.slice(0, 7))).toEqual([
      'Task 0:',
      'Task 1:',
      'Task 2:',
      'Task 3:',
    ]);
    expect(texts(branch, 'user')[0]).toContain('ONLY the tests');
    expect((await store.listSessions()).map((s) => s.id).sort()).toEqual(['chat', 'chat~1']);
  });

  it('a regenerated answer (same messages again, asked for with regenerate) is not shown to the model', async () => {
    const store = memoryStore();
    const agent = scriptedAgent({ seed: 2, toolSteps: [0, 0] });
    const { model, sessions } = wrapped(agent.model, store);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Say something.' }];
    agent.startTurn(0);
    const firstAnswer = (await generateText({ model, messages })).text;
    agent.startTurn(7);
    // Without the option the same messages are a retry, answered with the recorded answer (middleware-instances.test.ts).
    await generateText({ model, messages, providerOptions: { condense: { regenerate: true } } });
    expect(promptText(agent.requests.at(-1)!.prompt)).not.toContain(firstAnswer);
    expect(sessions.map((s) => s.id)).toEqual(['chat', 'chat~1']);
  });
});

describe('condenseMiddleware: calls', () => {
  it('runs one call at a time per middleware', async () => {
    let inFlight = 0;
    let most = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return {
          content: [{ type: 'text', text: 'hi' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const { model: wrappedModel } = wrapped(model, memoryStore());
    await Promise.all([1, 2, 3].map((i) => generateText({ model: wrappedModel, prompt: `q${i}` })));
    expect(most).toBe(1);
  });

  it('a context-overflow error compacts once and the call is retried once', async () => {
    const agent = scriptedAgent({ seed: 4 });
    let compactions = 0;
    let overflowOnce = true;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        if (agent.requests.length === 8 && overflowOnce) {
          overflowOnce = false;
          throw new APICallError({
            message: 'prompt is too long: 208656 tokens > 200000 maximum',
            url: 'https://api',
            requestBodyValues: {},
            statusCode: 400,
            isRetryable: false,
          });
        }
        return agent.model.doGenerate(options);
      },
    });
    const { model: wrappedModel } = wrapped(model, memoryStore(), {
      onSession: (s) => s.on('compaction:end', () => compactions++),
    });
    await runTurns({ agent, model: wrappedModel, turns: 4 });
    expect(overflowOnce).toBe(false);
    expect(compactions).toBe(1);
  });

  it('records a step whose provider reported no token counts, without usage', async () => {
    const store = memoryStore();
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: 'text', text: 'fine' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
        warnings: [],
      },
    });
    const { model: wrappedModel, sessions } = wrapped(model, store);
    await generateText({ model: wrappedModel, prompt: 'hello' });
    expect(texts(await messageEntries(store, 'chat'), 'assistant')).toEqual(['fine']);
    expect(sessions[0]!.record.state.lastUsage).toBeNull();
  });
});
