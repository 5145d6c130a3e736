/**
 * Failure modes at the session level: TESTING item 13 (continue message off by default), item 4
 * (a floor over the budget fails once, typed, and is not retried), item 7 (a bad or aborted
 * summary writes nothing: the stored session stays byte-identical).
 */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  extractiveSummarizer,
  FloorTooLargeError,
  llmSummarizer,
  type Summarizer,
} from '../../src/compact/index.js';
import type { Part } from '../../src/model/index.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, expectValid, reply, say, sizedUser, snapshot, toolRun, user } from '../presets/support.js';

const small: SessionOptions = {
  model: 'm',
  limits: { contextWindow: 10_000, maxOutput: 1_000 },
  prune: false,
};
const REQUEST = 'Rename getUser to fetchUser everywhere, but never touch src/legacy.ts';

/** The extractive summarizer, counting its calls. */
function counted(): Summarizer & { calls: number } {
  const inner = extractiveSummarizer();
  const s = {
    name: 'counted',
    calls: 0,
    summarize: (...a: Parameters<Summarizer['summarize']>) => {
      s.calls += 1;
      return inner.summarize(...a);
    },
  };
  return s;
}

describe('TESTING item 13: the continue message', () => {
  it('is off by default: an automatic compaction adds no synthetic message, the request stays verbatim', async () => {
    const session = await openSession(memoryStore(), 's', small);
    await session.append([
      user('Read the module'),
      act(toolRun('read', { path: 'src/user.ts' }, 3_000)),
      say('Read.'),
    ]);
    await session.append(user(REQUEST));
    const step = await session.recordStep({
      message: say('Renaming.'),
      usage: { prompt_tokens: 8_500, completion_tokens: 10 },
    });
    expect(step.markerId).not.toBeNull();
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction).toMatchObject({ status: 'compacted', pivot: { pivot: { auto: true } } });
    const texts = (await session.history()).flatMap((e): Part[] =>
      e.kind === 'message' ? e.message.parts : [],
    );
    expect(texts.some((p) => p.type === 'text' && p.synthetic)).toBe(false);
    expect(JSON.stringify(prepared.messages)).not.toContain('Continue if you have next steps');
    expect(JSON.stringify(prepared.messages)).toContain(REQUEST);
  });
});

describe('TESTING item 4: a floor over the budget fails once', () => {
  /** A 3,000-token turn, then a 9,000-token request: alone over the 8,000 budget. */
  async function overFloor(summarizer: Summarizer) {
    const store = memoryStore();
    const session = await openSession(store, 's', { ...small, compaction: { summarizer } });
    const errors: Error[] = [];
    session.on('compaction:error', ({ error }) => errors.push(error));
    await session.append([user('Read the module'), act(toolRun('read', { path: 'src/user.ts' }, 3_000))]);
    await session.append(sizedUser(REQUEST, 9_000));
    return { store, session, errors };
  }

  it('before the turn: a FloorTooLargeError naming the floor, and the next prepare() does not retry', async () => {
    const summarizer = counted();
    const { store, session, errors } = await overFloor(summarizer);
    const before = await snapshot(store, 's');
    const error = await session.prepare().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FloorTooLargeError);
    const { floorTokens, budget } = error as FloorTooLargeError;
    expect(budget).toBe(8_000);
    expect(floorTokens).toBeGreaterThanOrEqual(9_000);
    expect(String(error)).toContain(
      `floor (system prompt + latest request + kept tail) is ${floorTokens} tokens`,
    );
    const again = await session.prepare({ format: 'openai' });
    expect(again.compaction).toBeNull();
    expect(again.decision.compact).toBe(true); // reported to the caller, not acted on again
    expect(errors).toHaveLength(1);
    expect(summarizer.calls).toBe(0);
    expect(await snapshot(store, 's')).toBe(before);
    expectValid(again.messages, 'openai');
  });

  // The marker stays pending after its compaction failed; prepare() must not run it again on the
  // same state (the failedAtVersion guard covers markers too).
  it('after an overflowing step: the queued compaction fails once, not at every prepare()', async () => {
    const { session, errors } = await overFloor(counted());
    // The provider agrees with the local estimate (ratio 1), so the floor stays over the budget.
    const prompt = session.estimate().tokens;
    await session.recordStep({
      message: say('Renaming.'),
      usage: { prompt_tokens: prompt, completion_tokens: 10 },
    });
    await expect(session.prepare()).rejects.toBeInstanceOf(FloorTooLargeError);
    await session.prepare();
    expect(errors).toHaveLength(1);
  });

  // The provider reported 7,800 prompt tokens for a 500-token log: 7,300 of undeclared overhead
  // (the calibration residual). It stays after compaction, so it belongs in the floor and in
  // tokensAfter; otherwise a compaction "succeeds" with a tokensAfter far below the estimate the
  // session uses right after, and every later turn compacts again.
  it('undeclared overhead counts in the floor and in tokensAfter (no compaction every turn)', async () => {
    const session = await openSession(memoryStore(), 's', small);
    await session.append(sizedUser('Plan the rename', 500));
    await session.prepare();
    await session.recordStep({
      message: say('Planning.'),
      usage: { prompt_tokens: 7_800, completion_tokens: 10 },
    });
    const attempts: number[] = [];
    for (let turn = 0; turn < 5; turn++) {
      await session.append(sizedUser(`Step ${turn} of the rename`, 300));
      const outcome = await session.prepare().catch((e: unknown) => e);
      if (outcome instanceof FloorTooLargeError) attempts.push(turn);
      else if ((outcome as { compaction: { status: string } | null }).compaction?.status === 'compacted') {
        attempts.push(turn);
        const after = (outcome as { compaction: { tokensAfter: number } }).compaction.tokensAfter;
        expect(Math.abs(session.estimate().tokens - after)).toBeLessThanOrEqual(1);
      }
    }
    // A compaction that leaves the context near the limit is not run again a turn later for a
    // few hundred tokens: the next attempt waits until the request would no longer fit.
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < attempts.length; i++)
      expect(attempts[i]! - attempts[i - 1]!).toBeGreaterThanOrEqual(3);
  });
});

type Reply =
  | LanguageModelV3GenerateResult
  | ((call: LanguageModelV3CallOptions) => Promise<LanguageModelV3GenerateResult>);
const toolCallReply: LanguageModelV3GenerateResult = {
  ...reply(''),
  content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'bash', input: '{"command":"ls"}' }],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
};

describe("a bad summary writes nothing (with the quality gate off: its failure is the caller's)", () => {
  const controller = { current: new AbortController() };
  const cases: Array<[string, Reply]> = [
    ['finish length', reply('The user wants the rename and then', 'length')],
    ['finish tool-calls', toolCallReply],
    ['finish error', reply('Internal error', 'error')],
    ['finish content-filter', reply('', 'content-filter')],
    ['empty text', reply('  \n ')],
    ['refusal', reply("I'm sorry, but I can't help with summarizing this conversation.")],
    ['a throw', async () => Promise.reject(new Error('503 Service Unavailable'))],
    [
      'an abort during the call',
      async ({ abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason));
          controller.current.abort();
        }),
    ],
    [
      'an abort after a valid reply',
      async () => {
        controller.current.abort();
        return reply('A perfectly good summary.');
      },
    ],
  ];

  it.each(cases)(
    '%s: no pivot, the stored session byte-identical, still usable',
    async (_label, doGenerate) => {
      controller.current = new AbortController();
      const store = memoryStore();
      const model = new MockLanguageModelV3({ doGenerate });
      const summarizer = llmSummarizer({ model, maxRetries: 0 });
      const session = await openSession(store, 's', { ...small, compaction: { summarizer, gate: false } });
      await session.append([
        user(REQUEST),
        act(toolRun('grep', { pattern: 'getUser' }, 4_000)),
        say('Found 12 uses.'),
      ]);
      await session.append(user('Go ahead'));
      const before = await snapshot(store, 's');
      await expect(session.compact({ signal: controller.current.signal })).rejects.toThrow();
      expect(await snapshot(store, 's')).toBe(before);
      expect(model.doGenerateCalls.length).toBeGreaterThan(0);

      // The same through the queued marker of an overflowing step and prepare().
      controller.current = new AbortController();
      await session.recordStep({
        message: say('Renaming.'),
        usage: { prompt_tokens: 8_500, completion_tokens: 10 },
      });
      const queued = await snapshot(store, 's');
      // The request still fits the usable budget, so the turn goes on with the failure reported;
      // the caller's own abort is the one failure prepare() passes on.
      const prepared = await session.prepare({ signal: controller.current.signal }).catch((e: Error) => e);
      if (prepared instanceof Error) expect(controller.current.signal.aborted).toBe(true);
      else {
        expect(prepared.compactionError).toBeInstanceOf(Error);
        expect(prepared.compaction).toBeNull();
      }
      expect(await snapshot(store, 's')).toBe(queued);
      expect((await session.history()).some((e) => e.kind === 'compaction')).toBe(false);
    },
  );

  it('a summarizer that keeps failing is called 3 times in a row by default, not at every turn', async () => {
    const model = new MockLanguageModelV3({ doGenerate: async () => reply('') });
    const summarizer = llmSummarizer({ model, maxRetries: 0 });
    const session = await openSession(memoryStore(), 's', {
      ...small,
      compaction: { summarizer, gate: false },
    });
    const stopped: number[] = [];
    session.on('compaction:stopped', (e) => stopped.push(e.failures));
    await session.append([user(REQUEST), act(toolRun('grep', { pattern: 'getUser' }, 4_000)), say('Found.')]);
    for (let turn = 0; turn < 6; turn++) {
      await session.append(user(`Go on ${turn}`));
      await session.recordStep({
        message: say('Working.'),
        usage: { prompt_tokens: 8_500, completion_tokens: 10 },
      });
      await session.prepare();
    }
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(stopped).toEqual([3]);
  });

  it('by default, each of those summaries is replaced by the extractive one, and an abort still writes nothing', async () => {
    for (const [label, doGenerate] of cases) {
      controller.current = new AbortController();
      const store = memoryStore();
      const model = new MockLanguageModelV3({ doGenerate });
      const session = await openSession(store, 's', {
        ...small,
        compaction: { summarizer: llmSummarizer({ model, maxRetries: 0 }) },
      });
      const fallbacks: string[] = [];
      session.on('compaction:fallback', (e) => fallbacks.push(e.reason));
      await session.append([
        user(REQUEST),
        act(toolRun('grep', { pattern: 'getUser' }, 4_000)),
        say('Found 12 uses.'),
      ]);
      await session.append(user('Go ahead'));
      const before = await snapshot(store, 's');
      const outcome = await session.compact({ signal: controller.current.signal }).catch((e: Error) => e);
      if (label.startsWith('an abort')) {
        expect(outcome, label).toBeInstanceOf(Error);
        expect(await snapshot(store, 's'), label).toBe(before);
        continue;
      }
      if (outcome instanceof Error || outcome.status !== 'compacted')
        throw new Error(`${label}: not compacted`);
      expect(outcome.pivot.pivot.summarizer, label).toBe('extractive');
      expect(fallbacks, label).toEqual(['failed']);
      // The request the summary must carry is there verbatim; nothing the model wrote is.
      expect(outcome.summary, label).toContain(REQUEST);
      expect(outcome.summary, label).not.toContain('The user wants the rename and then');
      expect(outcome.summary, label).not.toContain("I'm sorry");
    }
  });

  it('an abort before the call never reaches the model', async () => {
    const store = memoryStore();
    const model = new MockLanguageModelV3({ doGenerate: reply('never') });
    const session = await openSession(store, 's', {
      ...small,
      compaction: { summarizer: llmSummarizer({ model }) },
    });
    await session.append([
      user(REQUEST),
      act(toolRun('grep', { pattern: 'getUser' }, 4_000)),
      user('Go ahead'),
    ]);
    const before = await snapshot(store, 's');
    await expect(session.compact({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      reason: 'aborted',
    });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(await snapshot(store, 's')).toBe(before);
  });
});
