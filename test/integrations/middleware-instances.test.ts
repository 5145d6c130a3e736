/**
 * Many app servers, one conversation: every server has its own condenseMiddleware (its own
 * session objects) on the shared store. Instances taking turns used to store every turn twice
 * (each read a stale cursor), 50 at once stored the shared start 50 times, and an HTTP retry of
 * the same messages forked `~1`, `~2`… Now each message is stored once, the model sees each once,
 * and a retry gets the recorded answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, type ModelMessage, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryStore, type Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { runTurns, scriptedAgent } from './harness.js';
import { messageEntries, promptText, texts, wrapped } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'condense-instances-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store per app server: one shared memory store, or a SQLite store of its own on one file. */
const kinds: [string, () => () => Store][] = [
  [
    'memory',
    () => {
      const shared = memoryStore();
      return () => shared;
    },
  ],
  [
    'sqlite',
    () => {
      const path = join(dir, `${Math.random().toString(36).slice(2)}.db`);
      return () => sqliteStore({ path });
    },
  ],
];

/** A model answering `answer <n> to <last user text>`, slowly enough that calls overlap. */
function answeringModel() {
  let n = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const users = options.prompt.filter((m) => m.role === 'user');
      const last = JSON.stringify(users.at(-1)?.content).match(/u\d+/)?.[0];
      const text = `answer ${n++} to ${last}`;
      await new Promise((r) => setTimeout(r, 5));
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

describe.each(kinds)('many middleware instances on one session (%s)', (_kind, storeKind) => {
  it('2 instances taking turns, with tool calls: each message stored once, the model sees each once', async () => {
    const storeFor = storeKind();
    const agent = scriptedAgent({ seed: 8, toolSteps: [1, 2], outputTokens: [100, 300] });
    const servers = [0, 1].map(() => wrapped(agent.model, storeFor(), { prune: false }));
    let messages: ModelMessage[] = [];
    for (let turn = 0; turn < 6; turn++) {
      const server = servers[turn % 2]!;
      messages = await runTurns({ agent, model: server.model, turns: 1, firstTurn: turn, messages });
    }
    const entries = await messageEntries(storeFor(), 'chat');
    expect(texts(entries, 'user').map((t) => t.slice(0, 7))).toEqual(
      [0, 1, 2, 3, 4, 5].map((t) => `Task ${t}:`),
    );
    // One assistant entry per model response, every call completed with its result.
    expect(entries.filter((e) => e.message.role === 'assistant')).toHaveLength(agent.requests.length);
    const tools = entries.flatMap((e) => e.message.parts.filter((p) => p.type === 'tool'));
    expect(tools.every((p) => p.type === 'tool' && p.state === 'completed')).toBe(true);
    // The last request carried each task once.
    const last = promptText(agent.requests.at(-1)!.prompt);
    for (let t = 0; t < 6; t++) expect(last.split(`Task ${t}:`).length - 1).toBe(1);
    expect(servers.flatMap((s) => s.sessions.map((x) => x.id))).toEqual(['chat', 'chat']);
  });

  it('50 instances at once: the shared start stored once, one answer recorded and given to all', async () => {
    const storeFor = storeKind();
    const model = answeringModel();
    const servers = Array.from({ length: 50 }, () => wrapped(model, storeFor()));
    const start: ModelMessage[] = [{ role: 'user', content: 'u0: hello' }];
    const results = await Promise.all(servers.map((s) => generateText({ model: s.model, messages: start })));
    const entries = await messageEntries(storeFor(), 'chat');
    expect(texts(entries, 'user')).toEqual(['u0: hello']);
    const answers = texts(entries, 'assistant');
    expect(answers).toHaveLength(1);
    expect(new Set(results.map((r) => r.text))).toEqual(new Set(answers));

    // The conversation goes on through any instance, in the same session.
    const next = [
      ...start,
      ...results[17]!.response.messages,
      { role: 'user' as const, content: 'u1: more' },
    ];
    await generateText({ model: servers[33]!.model, messages: next });
    const after = await messageEntries(storeFor(), 'chat');
    expect(texts(after, 'user')).toEqual(['u0: hello', 'u1: more']);
    expect(texts(after, 'assistant')).toHaveLength(2);
    expect((await storeFor().listSessions()).map((s) => s.id)).toEqual(['chat']);
  });

  it('an HTTP retry of the same messages gets the recorded answer: no model call, no write, no branch', async () => {
    const storeFor = storeKind();
    const model = answeringModel();
    const [a, b] = [wrapped(model, storeFor()), wrapped(model, storeFor())];
    const messages: ModelMessage[] = [{ role: 'user', content: 'u0: hello' }];
    const first = await generateText({ model: a.model, messages });
    const again = await generateText({ model: a.model, messages });
    const elsewhere = await generateText({ model: b.model, messages });
    const streamed = streamText({ model: b.model, messages });
    expect([again.text, elsewhere.text, await streamed.text]).toEqual([first.text, first.text, first.text]);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(model.doStreamCalls).toHaveLength(0);
    expect((await storeFor().listSessions()).map((s) => s.id)).toEqual(['chat']);
    expect((await messageEntries(storeFor(), 'chat')).length).toBe(2);
  });
});
