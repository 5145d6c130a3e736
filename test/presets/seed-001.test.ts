/**
 * Seed 001 (opencode-style compaction) scenarios with the seed-001 preset: the after-step formula
 * of §3.1, the queued marker, the context after compaction ("What did we do so far?", summary,
 * continue message when auto), pruning by marks (§5), and the two off switches (§3.1, §7).
 */
import { describe, expect, it } from 'vitest';
import {
  CompactionStoppedError,
  SEED_001_FINAL_INSTRUCTION,
  SEED_001_SYSTEM_PROMPT,
  SummaryRejectedError,
} from '../../src/compact/index.js';
import { buildView, type OpenAIChatMessage } from '../../src/context/index.js';
import { exportJsonl, parseCondenseJsonl } from '../../src/import/index.js';
import type { CompactionEntry, ToolPart } from '../../src/model/index.js';
import { PRUNE_PLACEHOLDER } from '../../src/prune/index.js';
import {
  EmptyContextError,
  openSession,
  presetOptions,
  type Session,
  type SessionOptions,
} from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import {
  act,
  expectValid,
  mockModel,
  promptText,
  REASONING_STEP_USAGE,
  reply,
  say,
  toolRun,
  user,
} from './support.js';

const preset = presetOptions('seed-001');
const NOW = 1_760_000_000_000;
const withLimits = (limits: SessionOptions['limits'], extra: SessionOptions = {}): SessionOptions => ({
  ...preset,
  model: 'opencode-model',
  limits,
  now: () => NOW,
  ...extra,
});

/** Anthropic usage: input_tokens excludes the cache, so total = input + cache.read + output. */
const usage = (input: number, cacheRead: number, output: number) => ({
  input_tokens: input,
  cache_read_input_tokens: cacheRead,
  output_tokens: output,
});

describe('seed 001 §3.1: total = input + cache.read + output > usable, after each step', () => {
  it.each([
    ['usable = context − min(output, cap)', { contextWindow: 100_000, maxOutput: 10_000 }, 90_000],
    ['the output reserve is capped at 32,000', { contextWindow: 100_000, maxOutput: 64_000 }, 68_000],
    ['no output limit: the cap is reserved', { contextWindow: 100_000 }, 68_000],
    [
      'an input limit is preferred',
      { contextWindow: 100_000, maxOutput: 10_000, inputLimit: 50_000 },
      50_000,
    ],
  ])('%s', async (_label, limits, usable) => {
    for (const [extra, compact] of [
      [0, false],
      [1, true],
    ] as const) {
      const session = await openSession(memoryStore(), 's', withLimits(limits));
      await session.append(user('Refactor the parser'));
      const cacheRead = Math.floor(usable / 3);
      const output = 1_000;
      const step = await session.recordStep({
        message: say('Refactoring.'),
        usage: usage(usable - cacheRead - output + extra, cacheRead, output),
      });
      expect(step.decision).toMatchObject({
        compact,
        tokens: usable + extra,
        limit: usable,
        comparison: '>',
      });
      expect(step.markerId !== null).toBe(compact);
    }
  });

  // C-05: seed 001 counts input + cache.read + output; cache writes are not in its total. The
  // Anthropic normalizer folds cache_creation_input_tokens into inputTotal, and the after-step
  // check counts inputTotal + output, so a step at exactly the usable budget with cache writes
  // is taken for an overflow.
  it('C-05: cache writes are not counted (90,000 with 10,000 cache writes does not overflow)', async () => {
    const session = await openSession(
      memoryStore(),
      's',
      withLimits({ contextWindow: 100_000, maxOutput: 10_000 }),
    );
    await session.append(user('Refactor the parser'));
    const step = await session.recordStep({
      message: say('Refactoring.'),
      usage: { ...usage(60_000, 25_000, 5_000), cache_creation_input_tokens: 10_000 },
    });
    expect(step.decision?.compact).toBe(false);
  });

  it('"total = inputTokens + cacheReadTokens + outputTokens": 100k input + 10k text + 100k reasoning is 110k', async () => {
    // usable 168,000: counting the reasoning (210,000) would compact.
    const session = await openSession(
      memoryStore(),
      's',
      withLimits({ contextWindow: 200_000, maxOutput: 32_000 }),
    );
    await session.append(user('Refactor the parser'));
    const step = await session.recordStep({
      message: say('Refactoring.'),
      usage: REASONING_STEP_USAGE,
    });
    expect(step.decision).toMatchObject({ compact: false, tokens: 110_000, limit: 168_000 });
  });

  it('auto = false disables it; a context limit of 0 never compacts', async () => {
    for (const [options, reason] of [
      [withLimits({ contextWindow: 100_000 }, { budget: { ...preset.budget, auto: false } }), 'disabled'],
      [withLimits({ contextWindow: 0 }), 'unlimited'],
    ] as const) {
      const session = await openSession(memoryStore(), 's', options);
      await session.append(user('hi'));
      const step = await session.recordStep({ message: say('ok'), usage: usage(5_000_000, 0, 1) });
      expect(step.decision).toMatchObject({ compact: false, reason });
      expect(step.markerId).toBeNull();
      expect((await session.prepare()).compaction).toBeNull();
    }
  });
});

describe('seed 001 §4: marker → compaction → resume', () => {
  const limits = { contextWindow: 100_000, maxOutput: 10_000 };

  it('queues a marker with auto: true; the next context is [question, summary, continue]', async () => {
    const session = await openSession(memoryStore(), 's', withLimits(limits));
    // A log the provider's count agrees with (88,000 tokens of reads), so none of it is overhead.
    await session.append([
      user('Add retries to src/http/client.ts'),
      act(toolRun('read', { path: 'src/http/client.ts' }, 44_000)),
      act(toolRun('read', { path: 'src/http/retry.ts' }, 44_000)),
    ]);
    const prompt = session.estimate().tokens;
    const step = await session.recordStep({
      message: say('Adding retries.'),
      usage: usage(prompt - 9_000, 9_000, 2_000),
    });
    expect(step.decision).toMatchObject({ compact: true, tokens: prompt + 2_000 });
    const marker = (await session.history()).find((e) => e.id === step.markerId);
    expect(marker?.kind === 'message' && marker.message.parts).toEqual([{ type: 'compaction', auto: true }]);

    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction?.status).toBe('compacted');
    if (prepared.compaction?.status !== 'compacted') return;
    expect(prepared.compaction.pivot.pivot).toMatchObject({ auto: true, markerId: step.markerId });
    expect(prepared.messages).toEqual([
      { role: 'user', content: 'What did we do so far?' },
      { role: 'assistant', content: prepared.compaction.summary },
      { role: 'user', content: 'Continue if you have next steps' },
    ]);
    const view = buildView(session.activeEntries(), { summaryAs: 'question+assistant' });
    expect(view[1]?.metadata).toMatchObject({ summary: true });
    expect(view[2]).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'Continue if you have next steps', synthetic: true }],
      metadata: { synthetic: true },
    });
    for (const format of ['ai-sdk', 'anthropic', 'gemini'] as const) {
      expectValid((await session.prepare({ format })).messages, format);
    }
  });

  it('§4.1 "manual entrypoints may set auto: false": a manual compaction stores its marker too', async () => {
    const session = await openSession(memoryStore(), 's', withLimits(limits));
    await session.append([
      user('Add retries to src/http/client.ts'),
      act(toolRun('read', { path: 'src/http/client.ts' }, 5_000)),
      say('Done.'),
    ]);
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    const history = await session.history();
    const marker = history.at(-2)!;
    expect(marker.kind === 'message' && marker.message).toEqual({
      role: 'user',
      parts: [{ type: 'compaction', auto: false }],
    });
    expect(history.at(-1)).toMatchObject({ kind: 'compaction', pivot: { auto: false, markerId: marker.id } });
  });

  it('a manual compaction adds no continue message (A001-12)', async () => {
    const session = await openSession(memoryStore(), 's', withLimits(limits));
    await session.append([
      user('Add retries to src/http/client.ts'),
      act(toolRun('read', { path: 'src/http/client.ts' }, 5_000)),
      say('Done: three retries with backoff.'),
    ]);
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    if (outcome.status !== 'compacted') return;
    expect(outcome.pivot.pivot.auto).toBe(false);
    const { messages } = await session.prepare({ format: 'openai' });
    expect(messages).toEqual([
      { role: 'user', content: 'What did we do so far?' },
      { role: 'assistant', content: outcome.summary },
    ]);
  });
});

/** C-11's reads in three user turns: t1 10k, t2 25k, t3 25k | t4 1k | t5 1k. */
async function c11Session(store: Store): Promise<Session> {
  const session = await openSession(store, 's', withLimits({ contextWindow: 1_000_000, maxOutput: 10_000 }));
  await session.append([
    user('Read the three modules'),
    ...[10, 25, 25].map((k, i) => act(toolRun('read', { path: `src/m${i}.ts` }, k * 1_000))),
    user('Now the small one'),
    act(toolRun('read', { path: 'src/t4.ts' }, 1_000)),
    user('And the last'),
    act(toolRun('read', { path: 'src/t5.ts' }, 1_000)),
  ]);
  return session;
}

describe('seed 001 §5: pruning by marks', () => {
  it('C-11 t1 10k, t2 25k, t3 25k | t4 1k | t5 1k: marks t1 and t2; storage keeps the output', async () => {
    const store = memoryStore();
    const session = await c11Session(store);
    const before = (await session.history()).flatMap((e) =>
      e.kind === 'message' ? e.message.parts.filter((p): p is ToolPart => p.type === 'tool') : [],
    );
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.pruned?.parts).toBe(2);
    const after = (await store.loadFrom('s', 0)).flatMap((e) =>
      e.kind === 'message' ? e.message.parts.filter((p): p is ToolPart => p.type === 'tool') : [],
    );
    expect(after.map((t) => t.compactedAt)).toEqual([NOW, NOW, undefined, undefined, undefined]);
    // Marks only: every stored output is intact (C-09).
    expect(after.map(({ compactedAt: _c, ...rest }) => rest)).toEqual(before);
    const results = (prepared.messages as OpenAIChatMessage[]).filter((m) => m.role === 'tool');
    expect(results.map((m) => (m.content === PRUNE_PLACEHOLDER ? 'cleared' : m.content.length))).toEqual([
      'cleared',
      'cleared',
      100_000,
      4_000,
      4_000,
    ]);
  });
});

/** A step that overflows usable 90,000 (89,000 + 2,000) while the next prompt still fits. */
async function overflowed(options: SessionOptions) {
  const session = await openSession(memoryStore(), 's', options);
  await session.append([
    user('Add retries to src/http/client.ts'),
    act(toolRun('read', { path: 'src/http/client.ts' }, 2_000)),
  ]);
  const step = await session.recordStep({
    message: say('Adding retries.'),
    usage: usage(80_000, 9_000, 2_000),
  });
  expect(step.decision?.compact).toBe(true);
  return session;
}

const SUMMARY = 'We added retries to src/http/client.ts; next: tests for the backoff.';

describe('seed 001 §4.2 / §6: the compaction call', () => {
  it('"Otherwise reuse the current session\'s model": X-04, the history, "What did we do so far?", X-05, no tools', async () => {
    const model = mockModel(SUMMARY);
    const session = await overflowed(withLimits({ contextWindow: 100_000, maxOutput: 10_000 }, { model }));
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction?.status).toBe('compacted');
    expect(model.doGenerateCalls).toHaveLength(1);
    const call = model.doGenerateCalls[0]!;
    expect(call.tools ?? []).toEqual([]);
    expect(call.prompt[0]).toEqual({ role: 'system', content: SEED_001_SYSTEM_PROMPT });
    expect(call.prompt.slice(1).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'user',
    ]);
    expect(promptText(call.prompt[1])).toBe('Add retries to src/http/client.ts');
    // §6.3: the marker is injected into the user content stream as the question, then §6.2.
    expect(promptText(call.prompt.at(-2))).toBe('What did we do so far?');
    expect(promptText(call.prompt.at(-1))).toBe(SEED_001_FINAL_INSTRUCTION);
    // "Store the result as a new assistant message flagged as summary=true": the text as returned.
    expect(prepared.messages).toEqual([
      { role: 'user', content: 'What did we do so far?' },
      { role: 'assistant', content: SUMMARY },
      { role: 'user', content: 'Continue if you have next steps' },
    ]);
  });

  it("a compaction model, when configured, is preferred over the session's", async () => {
    const own = mockModel('unused');
    const compactor = mockModel(SUMMARY);
    const base = presetOptions('seed-001', { summarizerModel: compactor });
    const session = await overflowed({
      ...base,
      model: own,
      limits: { contextWindow: 100_000, maxOutput: 10_000 },
    });
    await session.prepare();
    expect(own.doGenerateCalls).toHaveLength(0);
    expect(compactor.doGenerateCalls[0]?.prompt[0]).toEqual({
      role: 'system',
      content: SEED_001_SYSTEM_PROMPT,
    });
  });
});

describe('seed 001 §4.4: "Stop once you reach the compaction marker that has a corresponding completed summary"', () => {
  it('a pending marker is rendered as "What did we do so far?" in the context', async () => {
    const model = mockModel(() => reply(''));
    const session = await overflowed(withLimits({ contextWindow: 100_000, maxOutput: 10_000 }, { model }));
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compactionError).toBeInstanceOf(SummaryRejectedError);
    const messages = prepared.messages as OpenAIChatMessage[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'What did we do so far?' });
  });
});

describe('seed 001 §4 schedule → execute → resume: one automatic retry, then stop (A001-13)', () => {
  it('the first automatic attempt and one retry fail; then an event and a clear error; a manual compaction resumes', async () => {
    let failing = true;
    const model = mockModel(() => reply(failing ? '' : SUMMARY));
    const session = await overflowed(withLimits({ contextWindow: 100_000, maxOutput: 10_000 }, { model }));
    const stops: number[] = [];
    session.on('compaction:stopped', (e) => stops.push(e.failures));
    const errors: unknown[] = [];
    for (let i = 0; i < 4; i++) errors.push((await session.prepare()).compactionError);
    // The first attempt's error, then the retry's, reported as the stop (its cause the rejection).
    expect(errors[0]).toBeInstanceOf(SummaryRejectedError);
    expect(errors.slice(1).every((e) => e instanceof CompactionStoppedError)).toBe(true);
    expect((errors[1] as Error).cause).toBeInstanceOf(SummaryRejectedError);
    expect(String((errors[1] as Error).message)).toMatch(/stopped after 2 consecutive failures.*compact\(\)/);
    expect(stops).toEqual([2]);
    // Two summary calls, then none: a provider overflow error does not start a third.
    const overflow = new Error('prompt is too long: 95000 tokens > 90000 maximum');
    await expect(session.recordError(overflow)).rejects.toBeInstanceOf(CompactionStoppedError);
    expect(model.doGenerateCalls).toHaveLength(2);

    failing = false;
    const manual = await session.compact();
    expect(manual.status).toBe('compacted');
    expect(model.doGenerateCalls).toHaveLength(3);
    await session.append(user('Now the tests'));
    await session.prepare();
    const next = await session.recordStep({ message: say('On it.'), usage: usage(80_000, 9_000, 2_000) });
    expect(next.markerId).not.toBeNull();
    expect((await session.prepare()).compaction?.status).toBe('compacted');
  });
});

describe('seed 001 §4.4 / §6.3: a pending marker after a failed second compaction', () => {
  /** Two reads, the request, then a step whose output takes the total over usable 90,000. */
  async function overflow(session: Session, name: string): Promise<string | null> {
    await session.append([
      act(toolRun('read', { path: `src/http/${name}.ts` }, 44_000)),
      act(toolRun('read', { path: `src/http/${name}.test.ts` }, 44_000)),
    ]);
    const prompt = (await session.prepare()).tokens.tokens;
    const step = await session.recordStep({
      message: say(`Read ${name}.`),
      usage: usage(prompt - 9_000, 9_000, 4_000),
    });
    return step.markerId;
  }

  it('M2 is shown as "What did we do so far?" to the agent and stays in the next attempt\'s input', async () => {
    let failing = false;
    const model = mockModel(() => reply(failing ? '' : SUMMARY));
    const session = await openSession(
      memoryStore(),
      's',
      withLimits({ contextWindow: 100_000, maxOutput: 10_000 }, { model }),
    );
    await session.append(user('Add retries to src/http/client.ts'));
    expect(await overflow(session, 'client')).not.toBeNull(); // M1
    expect((await session.prepare()).compaction?.status).toBe('compacted'); // → S1, continue
    expect(await overflow(session, 'retry')).not.toBeNull(); // M2

    failing = true;
    const failed = await session.prepare({ format: 'openai' });
    expect(failed.compactionError).toBeInstanceOf(SummaryRejectedError);
    const shown = failed.messages as OpenAIChatMessage[];
    expect(shown.slice(0, 3)).toEqual([
      { role: 'user', content: 'What did we do so far?' },
      { role: 'assistant', content: SUMMARY },
      { role: 'user', content: 'Continue if you have next steps' },
    ]);
    expect(shown.at(-1)).toEqual({ role: 'user', content: 'What did we do so far?' });

    failing = false;
    const retried = await session.prepare({ format: 'openai' });
    expect(retried.compaction?.status).toBe('compacted');
    const [, second, third] = model.doGenerateCalls.map((c) => c.prompt);
    // Both attempts at the second compaction send the same input: the window from M1 on, the
    // pending M2 as the question, then the final instruction.
    expect(third).toEqual(second);
    expect(second![0]).toEqual({ role: 'system', content: SEED_001_SYSTEM_PROMPT });
    expect(second!.slice(1).map((m) => `${m.role}:${promptText(m).slice(0, 32)}`)).toEqual([
      'user:What did we do so far?',
      `assistant:${SUMMARY.slice(0, 32)}`,
      'user:Continue if you have next steps',
      'assistant:',
      'tool:',
      'assistant:',
      'tool:',
      'assistant:Read retry.',
      'user:What did we do so far?',
      `user:${SEED_001_FINAL_INSTRUCTION.slice(0, 32)}`,
    ]);
    expect(retried.messages).toEqual([
      { role: 'user', content: 'What did we do so far?' },
      { role: 'assistant', content: SUMMARY },
      { role: 'user', content: 'Continue if you have next steps' },
    ]);
  });
});

describe('seed 001 §5.1: "tokens ≈ chars/4", no per-part cap (MAX_TOKENS_PER_PART is seed 000\'s)', () => {
  it('a 240,000-character output counts 60,000 tokens, pruned as such', async () => {
    const session = await openSession(memoryStore(), 's', withLimits({ contextWindow: 1_000_000 }));
    await session.append([
      user('Dump the table'),
      act(toolRun('read', { path: 'dump.sql' }, 60_000)),
      user('Now the small one'),
      act(toolRun('read', { path: 'a.ts' }, 1_000)),
      user('And the last'),
      act(toolRun('read', { path: 'b.ts' }, 1_000)),
    ]);
    const dump = (await session.history())[1]!;
    expect(dump.partTokens).toEqual([60_000]);
    const prepared = await session.prepare();
    expect(prepared.pruned).toMatchObject({ parts: 1, plan: { prunableTokens: 60_000 } });
  });
});

describe('seed 001 §4.4 on an empty session', () => {
  it("an empty session's prepare() sends nothing: no provider takes a request without a message", async () => {
    const session = await openSession(memoryStore(), 's', withLimits({ contextWindow: 100_000 }));
    for (const format of ['openai', 'gemini'] as const)
      await expect(session.prepare({ format })).rejects.toBeInstanceOf(EmptyContextError);
  });
});

describe('seed 001 §2, §4.2, §5.1: the records, as `export --preset seed-001` writes them', () => {
  it('pruned parts carry time.compacted, the summary is an assistant message with summary: true; import restores the session', async () => {
    const store = memoryStore();
    const session = await c11Session(store);
    expect((await session.prepare()).pruned?.parts).toBe(2);
    expect((await session.compact()).status).toBe('compacted');
    const entries = await store.loadFrom('s', 0);
    const record = (await store.getSession('s'))!;

    const lines = exportJsonl(record, entries, 'seed-001')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { kind?: string; message?: { role: string; parts: Record<string, unknown>[] } },
      );
    const tools = lines.flatMap((l) => (l.message?.parts ?? []).filter((p) => p.type === 'tool'));
    expect(tools[0]).toEqual({
      type: 'tool',
      callID: expect.any(String),
      tool: 'read',
      state: {
        status: 'completed',
        input: { path: 'src/m0.ts' },
        output: expect.stringMatching(/^result /),
        time: { compacted: NOW },
      },
    });
    expect(tools.map((t) => (t.state as { time?: { compacted?: number } }).time?.compacted)).toEqual([
      NOW,
      NOW,
      undefined,
      undefined,
      undefined,
    ]);
    expect(JSON.stringify(lines)).not.toContain('compactedAt');
    const marker = lines.at(-2)!;
    expect(marker.message).toEqual({ role: 'user', parts: [{ type: 'compaction', auto: false }] });
    const summary = lines.at(-1)!;
    expect(summary.kind).toBe('message');
    expect(summary.message).toEqual({
      role: 'assistant',
      summary: true,
      parentID: (entries.at(-2) as { id: string }).id,
      parts: [{ type: 'text', text: (entries.at(-1) as CompactionEntry).pivot.summary }],
    });

    const back = parseCondenseJsonl(exportJsonl(record, entries, 'seed-001'));
    expect(back.entries).toEqual(entries);
  });
});
