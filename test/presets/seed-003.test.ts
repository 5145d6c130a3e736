/**
 * Seed 003 (session compact) scenarios with the seed-003 preset: the check before each call with
 * lastPromptTokens + estimate(new) > 0.8 × window, where estimate is the local `len / 3.5`; the
 * model window table with its 128k fallback; the summary by the Main Agent's own model under its
 * own "Summarize this conversation…" prompt; the new session one system entry "Summary: …".
 */
import { describe, expect, it } from 'vitest';
import { SEED_003_SYSTEM_PROMPT } from '../../src/compact/index.js';
import type { OpenAIChatMessage } from '../../src/context/index.js';
import type { AssistantMessage, UserMessage } from '../../src/model/index.js';
import { openSession, presetOptions, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { expectValid, mockModel, promptText } from './support.js';

const options = (model: SessionOptions['model'] = 'gpt-4o', extra: SessionOptions = {}): SessionOptions => ({
  ...presetOptions('seed-003'),
  model,
  ...extra,
});

/** Text of exactly `tokens` under len / 3.5 (rounded up): floor(3.5 × tokens) characters. */
const sized = (lead: string, tokens: number) => lead.padEnd(Math.floor(3.5 * tokens), '.');
const userOf = (lead: string, tokens: number): UserMessage => ({
  role: 'user',
  parts: [{ type: 'text', text: sized(lead, tokens) }],
});
const sayOf = (lead: string, tokens: number): AssistantMessage => ({
  role: 'assistant',
  parts: [{ type: 'text', text: sized(lead, tokens) }],
});

describe('seed 003 §Context Window Sizes and §Compact Threshold', () => {
  it.each([
    ['gpt-4o', 128_000],
    ['gpt-4o-mini', 128_000],
    ['gpt-4.1', 1_000_000],
    ['gpt-4.1-mini', 1_000_000],
    ['claude-sonnet-4-20250514', 200_000],
    ['claude-opus-4-20250514', 200_000],
    ['claude-haiku-3-20250307', 200_000],
    ['some-local-model', 128_000],
    ['gpt-4o-mini-tts', 128_000], // exact ids only (A003-08): no prefix guessing
    // "Unknown models fall back to 128_000": unknown to the seed's table, whatever the catalog says.
    ['claude-opus-4-6', 128_000],
    ['gemini-2.5-pro', 128_000],
  ])('%s: window %i, compaction above 0.8 of it', async (model, window) => {
    const session = await openSession(memoryStore(), 's', options(model));
    await session.append({ role: 'user', content: 'hello' });
    const { decision } = await session.prepare();
    expect(decision).toMatchObject({
      contextWindow: window,
      limit: window * 0.8,
      limitKind: 'threshold',
      comparison: '>',
      compact: false,
    });
  });
});

/**
 * A 60,000-token user message (len / 3.5), one call whose provider reported `prompt` tokens for
 * it, then a reply of `reply` local tokens: the next estimate is prompt + reply.
 */
async function afterOneCall(reply: number, prompt = 60_000, model: SessionOptions['model'] = 'gpt-4o') {
  const session = await openSession(memoryStore(), 's', options(model));
  await session.append(userOf('Plan the migration of the billing service', 60_000));
  await session.prepare();
  await session.recordStep({
    message: sayOf('Here is the plan', reply),
    usage: { prompt_tokens: prompt, completion_tokens: 900 },
  });
  return session;
}

describe('seed 003 §Trigger Strategy: lastPromptTokens + estimate(newMessages) > contextWindow × 0.8', () => {
  it('102,400 does not compact; the completion tokens are not counted', async () => {
    const session = await afterOneCall(42_400);
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction).toBeNull();
    expect(prepared.tokens).toMatchObject({ method: 'usage+delta', base: 60_000, delta: 42_400 });
    expect(prepared.decision).toMatchObject({ tokens: 102_400, limit: 102_400, compact: false });
  });

  it('102,401 compacts; the new session is one system entry "Summary: …"', async () => {
    const session = await afterOneCall(42_401);
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction).toMatchObject({ status: 'compacted', tokensBefore: 102_401 });
    if (prepared.compaction?.status !== 'compacted') return;
    const messages = prepared.messages as OpenAIChatMessage[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content).toBe(prepared.compaction.summary);
    expect(prepared.compaction.summary.startsWith('Summary: ')).toBe(true);
    expect(prepared.compaction.summary).toContain('Plan the migration of the billing service');
    expect(session.activeEntries().map((e) => e.kind)).toEqual(['compaction']);
    for (const format of ['ai-sdk', 'anthropic', 'gemini'] as const) {
      expectValid((await session.prepare({ format })).messages, format);
    }
  });

  it('"local estimation … (tiktoken or len / 3.5)": the delta is the raw local count, whatever the provider counted', async () => {
    // The provider counted 90,000 for what len / 3.5 puts at 60,000: the reply is still added as is.
    const under = await afterOneCall(12_400, 90_000);
    expect((await under.prepare()).decision).toMatchObject({ tokens: 102_400, compact: false });
    const over = await afterOneCall(12_401, 90_000);
    expect(over.estimate()).toMatchObject({ tokens: 102_401, base: 90_000, delta: 12_401 });
    expect((await over.prepare()).compaction).toMatchObject({ status: 'compacted', tokensBefore: 102_401 });
  });

  it('"First call: … estimate the entire session locally" (A003-15: its entries, not the system prompt)', async () => {
    for (const [tokens, compact] of [
      [102_400, false],
      [102_401, true],
    ] as const) {
      const session = await openSession(
        memoryStore(),
        's',
        options('gpt-4o', { system: 'You are Main Agent.' }),
      );
      await session.append([
        userOf('Summarize the design doc', 60_000),
        sayOf('Reading it', tokens - 60_000),
      ]);
      expect(session.estimate()).toMatchObject({ tokens, method: 'calibrated' });
      const prepared = await session.prepare();
      expect(prepared.compaction?.status === 'compacted' && prepared.compaction.tokensBefore).toBe(
        compact && tokens,
      );
    }
  });

  it('after compaction lastPromptTokens is reset: the estimate falls back to the local count', async () => {
    const session = await afterOneCall(42_401);
    const prepared = await session.prepare();
    expect(session.record.state.lastUsage).toBeNull();
    const pivot = session.activeEntries()[0]!;
    // A003-03: the whole new session (the summary entry) is estimated locally.
    expect(prepared.tokens).toMatchObject({ method: 'calibrated', ratio: 1 });
    expect(session.estimate().tokens).toBe(pivot.tokens);
    // The next call's usage becomes the new base.
    await session.append(userOf('Go on with step 2', 100));
    await session.prepare();
    await session.recordStep({
      message: sayOf('Step 2 done', 50),
      usage: { prompt_tokens: 1_234, completion_tokens: 20 },
    });
    expect(session.estimate()).toMatchObject({ method: 'usage+delta', base: 1_234, delta: 50 });
  });
});

describe('seed 003 §Summary Generation: "Independent LLM Call"', () => {
  it('"Uses the same model as Main Agent", system "Summarize this conversation...", messages: currentSession, no tools', async () => {
    const model = mockModel((_call, n) => `Intent: migrate billing (call ${n}). Next: step 2.`);
    const session = await afterOneCall(42_401, 60_000, model);
    const prepared = await session.prepare({ format: 'openai' });
    expect(model.doGenerateCalls).toHaveLength(1);
    const call = model.doGenerateCalls[0]!;
    expect(call.tools ?? []).toEqual([]);
    expect(call.prompt[0]).toEqual({ role: 'system', content: SEED_003_SYSTEM_PROMPT });
    expect(SEED_003_SYSTEM_PROMPT.startsWith('Summarize this conversation')).toBe(true);
    for (const row of [
      "User's current intent & what to do next",
      'Key decisions and conclusions reached',
      'Ongoing tasks and their status',
      'User preferences and relevant context',
      'Greetings, small talk',
      'Inner monologue reasoning steps',
      'Redundant tool call details',
      'Intermediate tool results',
    ]) {
      expect(SEED_003_SYSTEM_PROMPT).toContain(row);
    }
    // "pure messages in → summary out": the session as it is, nothing appended.
    expect(call.prompt.slice(1).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(promptText(call.prompt[1]).startsWith('Plan the migration of the billing service')).toBe(true);
    // "write summary as first entry": "Summary: " + exactly what the model returned.
    expect(prepared.messages).toEqual([
      { role: 'system', content: 'Summary: Intent: migrate billing (call 1). Next: step 2.' },
    ]);
  });

  it('the next compaction summarizes the current file, which starts with the previous summary', async () => {
    const model = mockModel((_call, n) => `Intent: migrate billing (call ${n}).`);
    const session = await afterOneCall(42_401, 60_000, model);
    await session.prepare();
    await session.append(userOf('Now step 2', 200));
    expect((await session.compact()).status).toBe('compacted');
    const second = model.doGenerateCalls[1]!;
    expect(second.prompt[0]).toEqual({
      role: 'system',
      content: `${SEED_003_SYSTEM_PROMPT}\n\nSummary: Intent: migrate billing (call 1).`,
    });
    expect(second.prompt.slice(1).map((m) => m.role)).toEqual(['user']);
  });
});

describe("seed 003 §Context Window Sizes: the seed's table is the preset's, not the default's", () => {
  it('the default looks the same ids up in the catalog: gpt-4.1 is 1,047,576, claude-opus-4-6 1,000,000', async () => {
    for (const [model, window] of [
      ['gpt-4.1', 1_047_576],
      ['claude-opus-4-6', 1_000_000],
    ] as const) {
      const preset = await openSession(memoryStore(), 's', options(model));
      const own = await openSession(memoryStore(), 's', { model });
      expect(preset.config.budget.contextWindow).toBe(model === 'gpt-4.1' ? 1_000_000 : 128_000);
      expect(own.config.budget.contextWindow).toBe(window);
    }
  });
});

describe('seed 003 §Trigger Strategy: "First call: when no lastPromptTokens exists yet (first _think() after startup)"', () => {
  /** One call whose provider counted far more than the local estimate (a long system prompt, tools). */
  async function oneCall(store: ReturnType<typeof memoryStore>) {
    const session = await openSession(store, 's', options());
    await session.append(userOf('Plan the migration of the billing service', 60_000));
    await session.prepare();
    await session.recordStep({
      message: sayOf('Here is the plan', 1_000),
      usage: { prompt_tokens: 101_500, completion_tokens: 900 },
    });
    return session;
  }

  it('after a restart the stored usage is not in memory: the whole session is estimated locally', async () => {
    const running = await oneCall(memoryStore());
    expect(running.estimate()).toMatchObject({ tokens: 102_500, base: 101_500, delta: 1_000 });
    expect((await running.prepare()).compaction?.status).toBe('compacted');

    const again = memoryStore();
    await oneCall(again);
    // The agent restarts: the same stored session, a new process.
    const restarted = await openSession(again, 's', options());
    expect(restarted.estimate()).toMatchObject({ tokens: 61_000, base: 0, delta: 61_000 });
    const prepared = await restarted.prepare();
    expect(prepared.compaction).toBeNull();
    expect(prepared.decision).toMatchObject({ tokens: 61_000, limit: 102_400, compact: false });
    // The next call's usage is the base again.
    await restarted.recordStep({
      message: sayOf('Step 1 done', 100),
      usage: { prompt_tokens: 102_000, completion_tokens: 50 },
    });
    expect(restarted.estimate()).toMatchObject({ tokens: 102_100, base: 102_000, delta: 100 });
  });
});

describe('seed 003 §Compact Threshold: no off switch, "estimatedTokens > contextWindow * compactThreshold"', () => {
  it('compactThreshold 0 compacts before every call with anything in the session', async () => {
    const model = mockModel((_call, n) => `Intent ${n}.`);
    const session = await openSession(memoryStore(), 's', {
      ...options(model),
      budget: { ...presetOptions('seed-003').budget, threshold: 0 },
    });
    expect(session.config.budget).toMatchObject({ limit: 0, limitKind: 'threshold', off: null });
    await session.append(userOf('Hello', 10));
    const first = await session.prepare({ format: 'openai' });
    expect(first.compaction?.status).toBe('compacted');
    expect(first.messages).toEqual([{ role: 'system', content: 'Summary: Intent 1.' }]);
    await session.recordStep({ message: sayOf('Hi', 5), usage: { prompt_tokens: 8, completion_tokens: 2 } });
    await session.append(userOf('Next', 5));
    expect((await session.prepare()).compaction?.status).toBe('compacted');
  });

  it('the default keeps 0 as off', async () => {
    const session = await openSession(memoryStore(), 's', {
      model: 'gpt-4o',
      budget: { threshold: 0, usableLimit: false },
    });
    expect(session.config.budget).toMatchObject({ limit: null, off: 'disabled' });
  });
});
