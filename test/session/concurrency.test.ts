import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageText } from '../../src/model/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { jsonlStore } from '../../src/store/jsonl.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { user } from './helpers.js';

const stores = {
  memory: () => memoryStore(),
  sqlite: () => sqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'condense-conc-')), 'c.db') }),
  jsonl: () => jsonlStore({ dir: mkdtempSync(join(tmpdir(), 'condense-conc-')) }),
};

describe.each(Object.entries(stores))('writes at once (%s store)', (_name, makeStore) => {
  it('20 parallel appends and 10 parallel tool results from one process all land', async () => {
    const store = makeStore();
    const session = await openSession(store, 's', { prune: false });
    await session.append(user('start'));
    const calls = Array.from({ length: 10 }, (_, i) => ({
      type: 'tool' as const,
      callId: `c${i}`,
      name: 'read',
      input: { i },
      state: 'running' as const,
    }));
    await session.recordStep({ message: { role: 'assistant', parts: calls } });
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => session.append(user(`message ${i}`))),
      ...calls.map((c, i) => session.recordToolResult(c.callId, { output: `result ${i}` })),
    ]);
    const history = await store.loadFrom('s', 0);
    const texts = history.flatMap((e) => (e.kind === 'message' ? [messageText(e.message)] : []));
    for (let i = 0; i < 20; i++) expect(texts).toContain(`message ${i}`);
    const step = history.find((e) => e.kind === 'message' && e.message.role === 'assistant');
    expect(
      step?.kind === 'message' &&
        step.message.parts.every((p) => p.type === 'tool' && p.state === 'completed'),
    ).toBe(true);
    expect(session.record.state.entryCount).toBe(history.length);
    await store.close();
  });

  it("a second worker's prepare() sees what the first appended", async () => {
    const store = makeStore();
    const a = await openSession(store, 's', { prune: false });
    const b = await openSession(store, 's', { prune: false });
    await a.append(user('written by worker A'));
    const { messages } = await b.prepare({ format: 'openai' });
    expect(JSON.stringify(messages)).toContain('written by worker A');
    expect(b.estimate().tokens).toBe(a.estimate().tokens);
    await store.close();
  });
});

describe('appends while the model runs', () => {
  it('a message appended between prepare() and recordStep() still counts in the next estimate', async () => {
    const session = await openSession(memoryStore(), 's', { prune: false });
    await session.append(user('first'));
    await session.prepare();
    await session.append(user('x'.repeat(40_000))); // typed while the model was answering
    await session.recordStep({
      message: { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
      usage: { prompt_tokens: 12, completion_tokens: 1 },
    });
    expect(session.estimate().tokens).toBeGreaterThan(10_000);
  });
});
