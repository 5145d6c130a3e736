/**
 * Seed 000 (RFC 007) scenarios with the seed-000 preset: at every session start the overflow check
 * on the last step's stored usage, the compaction task (a user message with a `compaction` part),
 * the summary (an assistant message flagged metadata.summary, exactly the LLM's text) and then
 * pruning in erase mode; the summary never pruned.
 */
import { describe, expect, it } from 'vitest';
import { SEED_000_FINAL_INSTRUCTION, SEED_000_SYSTEM_PROMPT } from '../../src/compact/index.js';
import { buildView, type OpenAIChatMessage } from '../../src/context/index.js';
import { exportJsonl, parseCondenseJsonl } from '../../src/import/index.js';
import type { Entry, Message, Part, ToolPart } from '../../src/model/index.js';
import { PRUNE_PLACEHOLDER } from '../../src/prune/index.js';
import {
  EmptyContextError,
  openSession,
  presetOptions,
  type SessionOptions,
} from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import {
  act,
  expectValid,
  mockModel,
  promptResults,
  promptText,
  REASONING_STEP_USAGE,
  say,
  snapshot,
  toolRun,
  user,
} from './support.js';

const NOW = 1_760_000_000_000;
/** gpt-4o's limits: usable = 128,000 − min(16,384, 32,000) = 111,616 (A000-01). */
const GPT_4O = { contextWindow: 128_000, maxOutput: 16_384 };
const options: SessionOptions = { ...presetOptions('seed-000'), model: 'gpt-4o', now: () => NOW };
const SUMMARY = 'User asked about sales data, we analyzed Q1-Q4, created 5 charts...';

/** The preset with a mock model as the session's model (it summarizes) and gpt-4o's limits. */
function withModel(model = mockModel(SUMMARY), now: () => number = () => NOW): SessionOptions {
  return { ...presetOptions('seed-000'), model, limits: GPT_4O, now };
}

/** Tool parts of the stored log, in order. */
async function storedTools(store: Store): Promise<ToolPart[]> {
  const entries: Entry[] = await store.loadFrom('s', 0);
  return entries.flatMap((e) =>
    e.kind === 'message' ? e.message.parts.filter((p) => p.type === 'tool') : [],
  );
}

/** Tool outputs of `sizes` thousand tokens, one per assistant step, in one user turn. */
function queries(sizes: number[], tag: string): Message[] {
  return [
    user(`Run the ${tag} queries`),
    ...sizes.map((k, i) => act(toolRun('query', { sql: `${tag}${i}` }, k * 1_000))),
  ];
}

describe('seed 000 §2 Pruning: at every session start, erase mode', () => {
  it('erases the stored output beyond the newest 40,000 tokens, sets compactedAt, and is idempotent', async () => {
    const store = memoryStore();
    const first = await openSession(store, 's', options);
    await first.append([...queries([25, 25, 25], 'sales'), say('All three tables loaded.')]);
    // Nothing happens until the next session start.
    expect((await storedTools(store)).every((t) => t.compactedAt === undefined)).toBe(true);

    const second = await openSession(store, 's', options);
    const tools = await storedTools(store);
    // Newest first: 25k, then 50k ≥ 40k (protected, overshoot); the oldest 25k > 20k is erased.
    expect(tools[0]).toMatchObject({ state: 'completed', output: PRUNE_PLACEHOLDER, compactedAt: NOW });
    for (const t of tools.slice(1)) {
      expect(t.compactedAt).toBeUndefined();
      expect(t.state === 'completed' && typeof t.output === 'string' && t.output.length).toBe(100_000);
    }
    const { messages } = await second.prepare({ format: 'openai' });
    const results = (messages as OpenAIChatMessage[]).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe(PRUNE_PLACEHOLDER);
    expect(results[1]).toHaveLength(100_000);

    const before = await snapshot(store, 's');
    await openSession(store, 's', options);
    expect(await snapshot(store, 's')).toBe(before);
  });

  it('C-11: t1 10k, t2 25k, t3 25k, t4 1k, t5 1k prunes nothing (t2 reaches 40k and is protected)', async () => {
    const store = memoryStore();
    const first = await openSession(store, 's', options);
    await first.append([
      ...queries([10, 25, 25], 'a'),
      user('Now the small ones'),
      act(toolRun('query', { sql: 't4' }, 1_000)),
      user('And the last'),
      act(toolRun('query', { sql: 't5' }, 1_000)),
    ]);
    const before = await snapshot(store, 's');
    await openSession(store, 's', options);
    expect(await snapshot(store, 's')).toBe(before);
  });
});

describe("seed 000 §Prunable States: 'output-available', 'output-error', 'completed'", () => {
  it('accepts AI SDK and opencode tool states on append, maps them, and prunes all three', async () => {
    const store = memoryStore();
    const session = await openSession(store, 's', options);
    const out = (k: number, tag: string) => `${tag} `.padEnd(k * 4_000, 'x');
    await session.append([
      user('Load the three datasources'),
      {
        role: 'assistant',
        parts: [
          {
            type: 'dynamic-tool',
            toolName: 'query',
            toolCallId: 'a',
            state: 'output-available',
            input: {},
            output: out(25, 'A'),
          },
        ],
      },
      {
        role: 'assistant',
        parts: [
          {
            type: 'dynamic-tool',
            toolName: 'query',
            toolCallId: 'b',
            state: 'output-error',
            input: {},
            errorText: out(25, 'B'),
          },
        ],
      },
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool',
            callID: 'c',
            tool: 'query',
            state: { status: 'completed', input: {}, output: out(25, 'C'), time: { start: 1, end: 2 } },
          },
        ],
      },
      act(toolRun('query', { sql: 'd' }, 25_000)),
      act(toolRun('query', { sql: 'e' }, 25_000)),
      {
        role: 'assistant',
        parts: [{ type: 'tool', callId: 'f', name: 'query', state: 'input-available', input: {} }],
      },
    ] as unknown as Message[]);
    const mapped = await storedTools(store);
    expect(mapped.map((t) => [t.callId, t.name, t.state])).toEqual([
      ['a', 'query', 'completed'],
      ['b', 'query', 'error'],
      ['c', 'query', 'completed'],
      [expect.any(String), 'query', 'completed'],
      [expect.any(String), 'query', 'completed'],
      ['f', 'query', 'running'],
    ]);
    await openSession(store, 's', options);
    // e 25k, d 50k ≥ 40k: protected; a, b and c (75k > 20k) are erased whatever their vocabulary.
    const pruned = await storedTools(store);
    expect(pruned.map((t) => t.compactedAt !== undefined)).toEqual([true, true, true, false, false, false]);
    expect(pruned[1]).toMatchObject({ state: 'error', error: PRUNE_PLACEHOLDER });
  });
});

/** "After 50 messages, token count exceeds limit": 25 questions about sales data, 25 query steps. */
async function fiftyMessages(store: Store, opts: SessionOptions = options) {
  const session = await openSession(store, 's', opts);
  for (let i = 1; i <= 24; i++) {
    await session.append(user(`Question ${i}: show the sales data for region ${i}`));
    await session.append(act(toolRun('query', { sql: `select * from sales where region = ${i}` }, 4_000)));
  }
  await session.append(user('Question 25: create a chart of Q1-Q4 sales'));
  const step = await session.recordStep({
    message: act(toolRun('chart', { quarters: 'Q1-Q4' }, 1_000)),
    usage: { prompt_tokens: 125_000, completion_tokens: 4_000 },
  });
  return { session, step };
}

describe('seed 000 §Visual Flow: session start → check overflow → compaction task → summary → pruning', () => {
  it('"Detects overflow by checking if input tokens + cache.read + output tokens > usable limit" at the next start', async () => {
    const store = memoryStore();
    const { step } = await fiftyMessages(store);
    // Not after the step: the check belongs to the session start.
    expect(step).toMatchObject({ decision: null, markerId: null });
    const reopened = await openSession(store, 's', options);
    // 125,000 + 4,000 = 129,000 > 111,616.
    expect(reopened.opened.decision).toMatchObject({
      compact: true,
      tokens: 129_000,
      limit: 111_616,
      reason: 'over-usable',
    });
    expect(reopened.opened.compaction?.status).toBe('compacted');
  });

  it('one token under the usable limit: no task, no summary, the start writes nothing', async () => {
    const store = memoryStore();
    const first = await openSession(store, 's', options);
    await first.append(user('Question 1: show the sales data'));
    await first.recordStep({
      message: say('Here.'),
      usage: { prompt_tokens: 107_616, completion_tokens: 4_000 },
    });
    const before = await snapshot(store, 's');
    const reopened = await openSession(store, 's', options);
    expect(reopened.opened.decision).toMatchObject({ compact: false, tokens: 111_616 });
    expect(await snapshot(store, 's')).toBe(before);
  });

  it('compact → save summary → prune: the summarizer reads every output pruning then erases', async () => {
    const store = memoryStore();
    let t = NOW;
    const model = mockModel(SUMMARY);
    await fiftyMessages(
      store,
      withModel(model, () => t++),
    );
    const reopened = await openSession(
      store,
      's',
      withModel(model, () => t++),
    );
    expect(reopened.opened.compaction?.status).toBe('compacted');
    // The summary call saw all 25 outputs as written, no placeholder.
    const results = promptResults(model.doGenerateCalls[0]!.prompt);
    expect(results).toHaveLength(25);
    expect(results.slice(0, 24).every((r) => r.text.length === 16_000)).toBe(true);
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).not.toContain(PRUNE_PLACEHOLDER);
    // Then pruning erased the old outputs from storage (A000-07), after the summary was saved.
    expect(reopened.opened.pruned?.parts).toBeGreaterThan(0);
    const history = await reopened.history();
    const task = history.find((e) => e.kind === 'message' && e.message.parts[0]?.type === 'compaction')!;
    const pivot = history.find((e) => e.kind === 'compaction')!;
    expect(task.seq).toBeLessThan(pivot.seq);
    const erased = (await storedTools(store)).filter((p) => p.compactedAt !== undefined);
    expect(erased.length).toBe(reopened.opened.pruned?.parts);
    for (const p of erased) {
      expect(p).toMatchObject({ output: PRUNE_PLACEHOLDER });
      expect(p.compactedAt).toBeGreaterThan(pivot.createdAt);
    }
  });

  it('an empty or tool-less session start writes nothing', async () => {
    const store = memoryStore();
    await openSession(store, 's', options);
    const empty = await snapshot(store, 's');
    await openSession(store, 's', options);
    expect(await snapshot(store, 's')).toBe(empty);

    const session = await openSession(store, 's', options);
    await session.append([user('What were Q1 sales?'), say('Q1 sales were 1.2M.')]);
    const toolLess = await snapshot(store, 's');
    const reopened = await openSession(store, 's', options);
    expect(reopened.opened).toEqual({ decision: null, compaction: null, pruned: expect.anything() });
    expect(await snapshot(store, 's')).toBe(toolLess);
  });
});

describe('seed 000 §1 step 2: "Creates a compaction task (user message with type: \'compaction\' part)"', () => {
  it('an automatic task has auto: true, a manual compaction stores one with auto: false', async () => {
    const store = memoryStore();
    await fiftyMessages(store);
    const reopened = await openSession(store, 's', options);
    const history = await reopened.history();
    const auto = history.at(-2)!;
    expect(auto.kind === 'message' && auto.message).toEqual({
      role: 'user',
      parts: [{ type: 'compaction', auto: true }],
    });
    expect(history.at(-1)).toMatchObject({ kind: 'compaction', pivot: { auto: true, markerId: auto.id } });

    await reopened.append([...queries([2], 'more'), say('Done.')]);
    const manual = await reopened.compact();
    expect(manual.status).toBe('compacted');
    const after = await reopened.history();
    const task = after.at(-2)!;
    expect(task.kind === 'message' && task.message.parts).toEqual([{ type: 'compaction', auto: false }]);
    expect(after.at(-1)).toMatchObject({ kind: 'compaction', pivot: { auto: false, markerId: task.id } });
  });
});

describe('seed 000 §1 step 3: the summary captures what was done, which datasources were used, what is next, key context', () => {
  it('the summary call: those four items as system prompt, the real history, the instruction last, no tools', async () => {
    const store = memoryStore();
    const model = mockModel(SUMMARY);
    await fiftyMessages(store, withModel(model));
    await openSession(store, 's', withModel(model));
    const call = model.doGenerateCalls[0]!;
    expect(call.prompt[0]).toEqual({ role: 'system', content: SEED_000_SYSTEM_PROMPT });
    for (const item of [
      'What was done',
      'What datasources were used',
      'What needs to be done next',
      'Key context',
    ]) {
      expect(SEED_000_SYSTEM_PROMPT).toContain(item);
    }
    expect(SEED_000_FINAL_INSTRUCTION).toContain('which datasources we used');
    const last = call.prompt.at(-1)!;
    expect(last.role).toBe('user');
    expect(promptText(last)).toBe(SEED_000_FINAL_INSTRUCTION);
    expect(call.tools ?? []).toEqual([]);
    // The conversation itself: the questions as user messages, the queries as calls and results.
    expect(promptText(call.prompt[1])).toBe('Question 1: show the sales data for region 1');
    expect(call.prompt[2]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'tool-call', toolName: 'query', input: { sql: 'select * from sales where region = 1' } },
      ],
    });
  });
});

describe('seed 000 §1 step 4: "Saves the summary as an assistant message with metadata.summary: true"', () => {
  it('the stored summary is exactly what the LLM returned; the context starts with it', async () => {
    const store = memoryStore();
    await fiftyMessages(store, withModel());
    const session = await openSession(store, 's', withModel());
    const outcome = session.opened.compaction;
    expect(outcome?.status === 'compacted' && outcome.pivot.pivot.summary).toBe(SUMMARY);
    const prepared = await session.prepare({ format: 'openai' });
    // Everything before the summary, the task message included, is skipped (C-02, A000-09).
    expect(prepared.messages).toEqual([{ role: 'assistant', content: SUMMARY }]);
    const view = buildView(session.activeEntries(), { summaryAs: session.config.compaction.summaryAs });
    expect(view).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', text: SUMMARY }],
        metadata: { summary: true, synthetic: true },
      },
    ]);
    for (const format of ['ai-sdk', 'anthropic', 'gemini'] as const) {
      expectValid((await session.prepare({ format })).messages, format);
    }
  });

  it('offline (no model): the extractive summary, without condense appendix; A000-11: the request only through it', async () => {
    const store = memoryStore();
    await fiftyMessages(store);
    const session = await openSession(store, 's', options);
    const outcome = session.opened.compaction;
    expect(outcome?.status).toBe('compacted');
    if (outcome?.status !== 'compacted') return;
    expect(outcome.summary).not.toContain('Facts carried over');
    expect(outcome.summary).toContain('Question 25: create a chart of Q1-Q4 sales');
    expect((await session.prepare({ format: 'openai' })).messages).toEqual([
      { role: 'assistant', content: outcome.summary },
    ]);
  });
});

describe('seed 000 §Key behavior: "The summary message is never compacted or pruned"', () => {
  it('newer tool outputs are pruned at the next session start, the summary is not', async () => {
    const store = memoryStore();
    await fiftyMessages(store);
    const session = await openSession(store, 's', options);
    const pivotBefore = (await session.history()).find((e) => e.kind === 'compaction');
    await session.append([...queries([25, 25, 25], 'after'), say('Charts created.')]);
    const reopened = await openSession(store, 's', options);
    const history = await reopened.history();
    expect(history.find((e) => e.kind === 'compaction')).toEqual(pivotBefore);
    const after = history.filter((e) => e.seq > pivotBefore!.seq);
    const tools = after
      .flatMap((e): Part[] => (e.kind === 'message' ? e.message.parts : []))
      .filter((p): p is ToolPart => p.type === 'tool');
    expect(tools.map((t) => t.compactedAt !== undefined)).toEqual([true, false, false]);
    const { messages } = await reopened.prepare({ format: 'openai' });
    const sent = messages as OpenAIChatMessage[];
    expect(sent[0]).toEqual({
      role: 'assistant',
      content: pivotBefore?.kind === 'compaction' ? pivotBefore.pivot.summary : '',
    });
    expect(sent.filter((m) => m.role === 'tool').map((m) => m.content.length)).toEqual([
      PRUNE_PLACEHOLDER.length,
      100_000,
      100_000,
    ]);
  });
});

describe('seed 000 §Future Considerations: "Reasoning tokens: Currently not included in overflow calculation"', () => {
  it('100k input + 10k output text + 100k reasoning counts 110k, not 210k (AI SDK v6 usage)', async () => {
    const store = memoryStore();
    const limits = { contextWindow: 200_000, maxOutput: 32_000 }; // usable 168,000
    const first = await openSession(store, 's', { ...options, limits });
    await first.append(user('Which datasource has the Q4 numbers?'));
    await first.recordStep({
      message: say('The warehouse.'),
      usage: REASONING_STEP_USAGE,
    });
    const reopened = await openSession(store, 's', { ...options, limits });
    expect(reopened.opened.decision).toMatchObject({ compact: false, tokens: 110_000, limit: 168_000 });
  });
});

describe('seed 000 §Edge Cases, Empty Conversations', () => {
  it("an empty session's prepare() sends nothing: no provider takes a request without a message", async () => {
    const session = await openSession(memoryStore(), 's', { ...options, system: 'You query datasources.' });
    for (const format of ['ai-sdk', 'anthropic'] as const)
      await expect(session.prepare({ format })).rejects.toBeInstanceOf(EmptyContextError);
    // Pruning an empty conversation does nothing (§Edge Cases).
    expect((await session.prune())?.parts ?? 0).toBe(0);
  });
});

describe('seed 000: the records, as `export --preset seed-000` writes them', () => {
  it('"metadata.summary: true" on the summary, AI SDK tool parts in the prunable states with compactedAt; import restores the session', async () => {
    const store = memoryStore();
    const { session } = await fiftyMessages(store, withModel());
    await session.append({
      role: 'assistant',
      parts: [
        { type: 'tool-query', toolCallId: 'err', state: 'output-error', input: {}, errorText: 'timeout' },
      ],
    } as unknown as Message);
    await openSession(store, 's', withModel()); // compacts, then prunes (erase mode)
    const entries = await store.loadFrom('s', 0);
    const record = (await store.getSession('s'))!;
    const text = exportJsonl(record, entries, 'seed-000');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { message?: { parts: Record<string, unknown>[]; metadata?: unknown } });
    const tools = lines.flatMap((l) =>
      (l.message?.parts ?? []).filter((p) => String(p.type).startsWith('tool')),
    );
    // Parts the agent gave as model tool calls are Qwery's plain `tool` parts; the UI part stays `tool-NAME`.
    expect(new Set(tools.map((t) => t.type))).toEqual(new Set(['tool', 'tool-query']));
    expect(tools[0]).toEqual({
      type: 'tool',
      toolName: 'query',
      toolCallId: expect.any(String),
      state: 'output-available',
      input: { sql: 'select * from sales where region = 1' },
      output: PRUNE_PLACEHOLDER,
      compactedAt: NOW,
    });
    expect(tools.at(-1)).toEqual({
      type: 'tool-query',
      toolCallId: 'err',
      state: 'output-error',
      input: {},
      errorText: 'timeout',
    });
    expect(tools.filter((t) => t.compactedAt === NOW).length).toBeGreaterThan(0);
    const summary = lines.at(-1)!;
    expect(summary.message).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', text: SUMMARY }],
      metadata: { summary: true },
    });
    expect(parseCondenseJsonl(text).entries).toEqual(entries);
  });
});

describe('seed 000 §Protected Tools: skill by name, tool-* parts by prefix, pruned parts by their compactedAt marker', () => {
  it('a skill output and an AI SDK tool-NAME part are never erased, nor counted toward the protect window', async () => {
    const store = memoryStore();
    let now = NOW;
    const opts = { ...options, now: () => now };
    const session = await openSession(store, 's', opts);
    await session.append([
      user('Load the datasources with the house SQL style'),
      act(toolRun('skill', { name: 'sql-style' }, 30_000)),
      act(toolRun('query', { sql: 'a' }, 25_000)),
      act(toolRun('query', { sql: 'b' }, 25_000)),
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool-query',
            toolCallId: 'static',
            state: 'output-available',
            input: {},
            output: 's '.padEnd(100_000, 'x'),
          },
        ],
      } as unknown as Message,
      act(toolRun('query', { sql: 'c' }, 20_000)),
    ]);
    // Newest first: c 20k; the tool-query part is protected and not counted; b takes the total to
    // 45k ≥ 40k and is protected; a (25k > 20k) is erased. Counted, the tool-query part would have
    // taken the total to 45k and a and b would both have gone.
    await openSession(store, 's', opts);
    const tools = await storedTools(store);
    expect(tools.map((t) => [t.name, t.aiSdkKind, t.compactedAt])).toEqual([
      ['skill', undefined, undefined],
      ['query', undefined, NOW],
      ['query', undefined, undefined],
      ['query', 'static', undefined],
      ['query', undefined, undefined],
    ]);
    expect(tools[3]).toMatchObject({ state: 'completed', output: expect.stringMatching(/^s x/) });
    expect(tools[0]).toMatchObject({ state: 'completed', output: expect.stringMatching(/^result /) });
    now = NOW + 60_000;
    await openSession(store, 's', opts); // idempotent: the marked part is skipped, its marker kept
    expect((await storedTools(store)).map((t) => t.compactedAt)).toEqual([
      undefined,
      NOW,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
