/**
 * Seed 003 (session compact) scenarios with the seed-003 preset: the check before each call with
 * lastPromptTokens + estimate(new) > 0.8 × window, the model window table with its 128k fallback,
 * the context after compaction (one system entry "Summary: …"), and lastPromptTokens reset.
 */
import { describe, expect, it } from 'vitest';
import type { OpenAIChatMessage } from '../../src/context/index.js';
import { openSession, presetOptions, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { expectValid, sizedSay, sizedUser } from './support.js';

const options = (model: string): SessionOptions => ({ ...presetOptions('seed-003'), model });

describe('seed 003: window table and threshold', () => {
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
  ])('%s: window %i, compaction above 0.8 of it', async (model, window) => {
    const session = await openSession(memoryStore(), 's', options(model));
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
 * A 60,000-token prompt reported exactly by the provider (so the calibration ratio is 1), then a
 * reply of `reply` tokens: the next estimate is lastPromptTokens + estimate(reply).
 */
async function afterOneCall(reply: number) {
  const session = await openSession(memoryStore(), 's', options('gpt-4o'));
  await session.append(sizedUser('Plan the migration of the billing service', 60_000));
  await session.prepare();
  await session.recordStep({
    message: sizedSay('Here is the plan', reply),
    usage: { prompt_tokens: 60_000, completion_tokens: 900 },
  });
  return session;
}

describe('seed 003: before each call, lastPromptTokens + estimate(new messages) > 0.8 × window', () => {
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

  it('after compaction lastPromptTokens is reset: the estimate falls back to the local count', async () => {
    const session = await afterOneCall(42_401);
    const prepared = await session.prepare();
    expect(session.record.state.lastUsage).toBeNull();
    const pivot = session.activeEntries()[0]!;
    // A003-03: the whole new session (the summary entry) is estimated, with the learned ratio 1.
    expect(prepared.tokens).toMatchObject({ method: 'calibrated', ratio: 1 });
    expect(session.estimate().tokens).toBe(pivot.tokens);
    // The next call's usage becomes the new base.
    await session.append(sizedUser('Go on with step 2', 100));
    await session.recordStep({
      message: sizedSay('Step 2 done', 50),
      usage: { prompt_tokens: 1_234, completion_tokens: 20 },
    });
    expect(session.estimate()).toMatchObject({ method: 'usage+delta', base: 1_234 });
  });
});
