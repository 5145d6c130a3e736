import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { messageText } from '../../src/model/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { say, turn, user } from './helpers.js';

const small = {
  model: 'test-model',
  limits: { contextWindow: 20_000, maxOutput: 2_000 },
  prune: false as const,
};

describe('after-step trigger (seeds 000/001)', () => {
  it('queues one marker on overflow, emits overflow, and prepare() compacts before the next call', async () => {
    const store = memoryStore();
    const session = await openSession(store, 's', small);
    const overflows: number[] = [];
    session.on('overflow', (e) => overflows.push(e.decision.tokens));
    await session.append(turn('first request about parser.ts', 3, 20_000));
    await session.append(user('second request'));
    const step = await session.recordStep({
      message: say('ok'),
      usage: { prompt_tokens: 17_000, completion_tokens: 100 },
    });
    expect(step.decision?.compact).toBe(true);
    expect(step.markerId).not.toBeNull();
    expect(overflows).toEqual([17_100]);
    // A second overflowing step does not queue a second marker (A001-14).
    const again = await session.recordStep({
      message: say('still'),
      usage: { prompt_tokens: 17_200, completion_tokens: 10 },
    });
    expect(again.markerId).toBe(step.markerId);
    expect(session.record.state.pendingMarkerId).toBe(step.markerId);

    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction?.status).toBe('compacted');
    expect(session.record.state.pendingMarkerId).toBeNull();
    expect(validate(prepared.messages, 'openai')).toEqual([]);
    const text = JSON.stringify(prepared.messages);
    expect(text).toContain('second request');
    expect(text).not.toContain('compaction');
  });

  it('never queues a marker when auto is off, and never with an unlimited window', async () => {
    for (const options of [
      { ...small, budget: { auto: false } },
      { ...small, limits: { contextWindow: 0 } },
    ]) {
      const session = await openSession(memoryStore(), 's', options);
      await session.append(user('hi'));
      const step = await session.recordStep({
        message: say('ok'),
        usage: { prompt_tokens: 10_000_000, completion_tokens: 1 },
      });
      expect(step.decision?.compact).toBe(false);
      expect(step.markerId).toBeNull();
      const prepared = await session.prepare();
      expect(prepared.compaction).toBeNull();
    }
  });
});

describe('before-turn trigger (seeds 003/004)', () => {
  it('a single user turn with 100 tool steps compacts between steps and stays valid', async () => {
    const session = await openSession(memoryStore(), 's', {
      ...small,
      limits: { contextWindow: 40_000, maxOutput: 4_000 },
    });
    await session.append(user('Refactor every module under src/ and never touch src/legacy.ts'));
    let compactions = 0;
    for (let i = 0; i < 100; i++) {
      const { messages, compaction } = await session.prepare({ format: 'anthropic' });
      if (compaction?.status === 'compacted') compactions++;
      expect(validate(messages, 'anthropic')).toEqual([]);
      await session.recordStep({ message: turn('x', 1, 2_000, `m${i}`)[1]! });
    }
    expect(compactions).toBeGreaterThan(0);
    const { messages, tokens } = await session.prepare({ format: 'openai' });
    expect(tokens.tokens).toBeLessThan(40_000);
    // The request is still there verbatim after compacting in the middle of its turn.
    expect(JSON.stringify(messages)).toContain(
      'Refactor every module under src/ and never touch src/legacy.ts',
    );
  });
});

describe('calibration', () => {
  it('estimates a model that counts 2.5 characters per token right after one step', async () => {
    const session = await openSession(memoryStore(), 's', { ...small, limits: { contextWindow: 1_000_000 } });
    await session.append(turn('read things', 5, 10_000));
    const before = session.estimate().tokens;
    const chars = JSON.stringify((await session.prepare({ format: 'openai' })).messages).length;
    await session.recordStep({
      message: say('done'),
      usage: { prompt_tokens: Math.round(chars / 2.5), completion_tokens: 5 },
    });
    // Compaction dropped lastUsage? No: none happened. Next turn adds another 50k chars.
    await session.append(turn('more', 5, 10_000, 'more'));
    const chars2 = JSON.stringify((await session.prepare({ format: 'openai' })).messages).length;
    const truth = chars2 / 2.5;
    const after = session.estimate().tokens;
    expect(before).toBeLessThan(truth * 0.7); // chars/4 alone is off by a third or more
    expect(Math.abs(after - truth) / truth).toBeLessThan(0.1);
  });
});

describe('failure leaves the session as it was', () => {
  it('a throwing summarizer writes nothing and the session stays usable', async () => {
    const store = memoryStore();
    const session = await openSession(store, 's', {
      ...small,
      compaction: {
        fallback: false,
        summarizer: {
          name: 'broken',
          summarize: async () => {
            throw new Error('provider down');
          },
        },
      },
    });
    await session.append(turn('a request', 4, 3_000));
    await session.append(turn('another request', 4, 3_000, 'b'));
    const before = JSON.stringify([await store.getSession('s'), await store.loadFrom('s', 0)]);
    await expect(session.compact()).rejects.toThrow('provider down');
    expect(JSON.stringify([await store.getSession('s'), await store.loadFrom('s', 0)])).toBe(before);
    const { messages } = await session.prepare({ format: 'openai' });
    expect(validate(messages, 'openai')).toEqual([]);
  });
});

describe('provider overflow errors', () => {
  it('compact once and retry once; a second overflow in a row is reported, not looped', async () => {
    const session = await openSession(memoryStore(), 's', small);
    await session.append(turn('a request', 4, 3_000));
    await session.append(turn('latest request', 2, 3_000, 'l'));
    const overflow = Object.assign(
      new Error(
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      ),
      {
        statusCode: 400,
      },
    );
    const first = await session.recordError(overflow);
    expect(first).toMatchObject({ overflow: true, retry: true });
    const second = await session.recordError(overflow);
    expect(second).toMatchObject({ overflow: true, retry: false });
    expect(await session.recordError(new Error('429 Too Many Requests: rate limit exceeded'))).toMatchObject({
      overflow: false,
    });
  });
});

describe('concurrent workers', () => {
  it('two sessions over one store compact exactly once and lose no append', async () => {
    const store = memoryStore();
    const a = await openSession(store, 's', small);
    await a.append(turn('a request', 4, 3_000));
    await a.append(turn('latest', 2, 1_000, 'l'));
    const b = await openSession(store, 's', small);
    const [ra, rb] = await Promise.all([a.compact(), b.compact()]);
    const statuses = [ra.status, rb.status].sort();
    expect(statuses).toEqual(['compacted', 'skipped']);
    await a.append(user('from a'));
    await b.append(user('from b'));
    const all = await store.loadFrom('s', 0);
    expect(all.filter((e) => e.kind === 'compaction')).toHaveLength(1);
    const texts = all.flatMap((e) => (e.kind === 'message' ? [messageText(e.message)] : []));
    expect(texts).toContain('from a');
    expect(texts).toContain('from b');
    expect(new Set(all.map((e) => e.seq)).size).toBe(all.length);
  });
});

describe('the provider count in an overflow error', () => {
  it('becomes the base of the estimate before compacting', async () => {
    const session = await openSession(memoryStore(), 's', { ...small, budget: { auto: false } });
    await session.append(turn('a request', 4, 3_000));
    await session.append(turn('latest request', 2, 3_000, 'l'));
    const error = Object.assign(new Error('prompt is too long: 208,000 tokens > 200000 maximum'), {
      statusCode: 400,
    });
    const seen: number[] = [];
    session.on('compaction:start', (e) => seen.push(e.tokensBefore));
    const result = await session.recordError(error);
    expect(result.overflow).toBe(true);
    expect(seen[0]).toBe(208_000);
  });
});
