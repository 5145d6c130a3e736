/**
 * Background compaction (issue 14 item 4): past the soft threshold a summary is prepared off the
 * agent's path; at the hard threshold it is applied without a model call on the agent's path, or
 * discarded when the prefix it covers changed, and the normal compaction runs.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { llmSummarizer, type Summarizer } from '../../src/compact/index.js';
import { validate } from '../../src/context/index.js';
import { ConfigError } from '../../src/model/errors.js';
import {
  openSession,
  type Prepared,
  presetOptions,
  type Session,
  type SessionEvents,
  type SessionOptions,
} from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, reply, say, sizedSay, sizedUser, toolRun } from '../presets/support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A summarizing model that takes `delay` ms per call and counts its calls. */
function slowModel(delay: number, fail = 0): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      calls += 1;
      const n = calls;
      await sleep(delay);
      if (n <= fail) throw new Error('summarizer unavailable');
      return reply(`Summary ${n}: the user works through numbered tasks.`);
    },
  });
}

/** Window 10,000, output 1,000: compaction triggers above 8,000 (threshold 0.8), soft at 4,800. */
function options(summarizer: Summarizer, extra: SessionOptions = {}): SessionOptions {
  return {
    model: 'm',
    limits: { contextWindow: 10_000, maxOutput: 1_000 },
    prune: false,
    compaction: { summarizer },
    background: { soft: 0.6 },
    ...extra,
  };
}

function recorder(session: Session) {
  const seen: { [K in keyof SessionEvents]?: SessionEvents[K][] } = {};
  for (const name of [
    'background:start',
    'background:prepared',
    'background:applied',
    'background:discarded',
    'compaction:end',
  ] as const)
    session.on(name, (e) => {
      const list = (seen[name] ?? []) as unknown[];
      list.push(e);
      seen[name] = list as never;
    });
  return seen;
}

let turns = 0;
/** Appends 600-token turns, preparing each like an agent, until the estimate passes `tokens`. */
async function growPast(session: Session, tokens: number): Promise<Prepared> {
  let prepared: Prepared;
  do {
    turns += 1;
    await session.append([
      sizedUser(`Task ${turns}: do step ${turns}`, 300),
      sizedSay(`Did step ${turns}`, 300),
    ]);
    prepared = await session.prepare();
  } while (session.estimate().tokens <= tokens && prepared.compaction === null);
  return prepared;
}

/** Resolves on the session's next `event`. */
function next<K extends keyof SessionEvents>(session: Session, event: K): Promise<SessionEvents[K]> {
  return new Promise((resolve) => {
    const off = session.on(event, (e) => {
      off();
      resolve(e);
    });
  });
}

function expectValid(prepared: Prepared) {
  expect(validate(prepared.messages, 'ai-sdk')).toEqual([]);
}

describe('background compaction', () => {
  it('starts past the soft threshold and is applied at the hard one without a model call on the agent path', async () => {
    const model = slowModel(150);
    const session = await openSession(memoryStore(), 's', options(llmSummarizer({ model })));
    const seen = recorder(session);
    await growPast(session, 4_800);
    expect(seen['background:start']).toHaveLength(1);
    // Queued, not run inside prepare(): the agent's call returned before the summarizer started.
    expect(model.doGenerateCalls).toHaveLength(0);
    const job = session.background!.job!;
    await next(session, 'background:prepared');
    expect(model.doGenerateCalls).toHaveLength(1);

    const prepared = await growPast(session, 8_000);
    expect(prepared.compaction).toMatchObject({ status: 'compacted' });
    expect(model.doGenerateCalls).toHaveLength(1); // no summary written on the agent's path
    expect(seen['background:applied']).toMatchObject([{ jobId: job.id }]);
    expect(seen['background:discarded']).toBeUndefined();
    const pivot = seen['background:applied']![0]!.pivot.pivot;
    expect(pivot.summarizedThroughId).toBe(job.job.plan.summarizedThroughId);
    expect(pivot.summary).toContain('Summary 1');
    // Everything appended after the job was made is kept verbatim after the pivot.
    const view = JSON.stringify(prepared.messages);
    expect(view).toContain(`Task ${turns}: do step ${turns}`);
    expect(view).toContain(`Task ${turns - 2}: do step ${turns - 2}`);
    expect(session.estimate().tokens).toBeLessThan(8_000);
    expectValid(prepared);
  });

  it("an after-step overflow's queued compaction takes the prepared summary too", async () => {
    const model = slowModel(50);
    const session = await openSession(memoryStore(), 's', options(llmSummarizer({ model })));
    const seen = recorder(session);
    await growPast(session, 4_800);
    await next(session, 'background:prepared');
    const prompt = session.estimate().tokens;
    const step = await session.recordStep({
      message: sizedSay('A long answer', 3_500),
      usage: { prompt_tokens: prompt, completion_tokens: 3_500 },
    });
    expect(step.markerId).not.toBeNull();
    const prepared = await session.prepare();
    expect(prepared.compaction).toMatchObject({
      status: 'compacted',
      pivot: { pivot: { markerId: step.markerId } },
    });
    expect(seen['background:applied']).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(session.record.state.pendingMarkerId).toBeNull();
    expectValid(prepared);
  });

  it('a summary still being written at the hard threshold is waited for, not begun again', async () => {
    const model = slowModel(400);
    const session = await openSession(memoryStore(), 's', options(llmSummarizer({ model })));
    const seen = recorder(session);
    await growPast(session, 4_800);
    const prepared = await growPast(session, 8_000);
    expect(prepared.compaction).toMatchObject({ status: 'compacted' });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(seen['background:applied']![0]!.waitedMillis).toBeGreaterThan(100);
    expectValid(prepared);
  });

  it('a prefix changed in between (a late tool result in the summarized span): discarded, and the normal compaction runs', async () => {
    const model = slowModel(100);
    const session = await openSession(memoryStore(), 's', options(llmSummarizer({ model })));
    const seen = recorder(session);
    await session.append([
      sizedUser('Run the slow build', 300),
      {
        role: 'assistant',
        parts: [{ type: 'tool', callId: 'late', name: 'bash', input: { command: 'make' }, state: 'running' }],
      },
    ]);
    await growPast(session, 4_800);
    await next(session, 'background:prepared');
    await growPast(session, 7_000);
    // The result arrives with a turn that takes the prompt over the limit: no turn in between.
    await session.recordToolResult('late', { output: 'build finished: 0 errors' });
    await session.append([sizedUser('Now ship it', 800), sizedSay('Shipping.', 800)]);
    const prepared = await session.prepare();
    expect(seen['background:discarded']).toMatchObject([{ reason: 'span-changed', discarded: 1 }]);
    expect(seen['background:applied']).toBeUndefined();
    expect(prepared.compaction).toMatchObject({ status: 'compacted' });
    expect(model.doGenerateCalls).toHaveLength(2); // the normal path summarized again
    const pivot = seen['compaction:end']![0]!.pivot.pivot;
    expect(pivot.summary).toContain('Summary 2');
    expectValid(prepared);
  });

  it('a prune of the summarized span discards the prepared summary at the next turn; a new one is prepared and applied', async () => {
    const model = slowModel(100);
    const prune = {
      when: 'open' as const,
      protectTokens: 200,
      minimumTokens: 100,
      protectTurns: 1,
      crossing: 'prune' as const,
    };
    const session = await openSession(memoryStore(), 's', options(llmSummarizer({ model }), { prune }));
    const seen = recorder(session);
    await session.append([
      sizedUser('Read the config', 100),
      act(toolRun('read', { path: 'a.ts' }, 1_000)),
      say('Read.'),
    ]);
    await growPast(session, 4_800);
    const first = session.background!.job!.id;
    await next(session, 'background:prepared');
    expect((await session.prune())?.parts).toBe(1);
    await session.prepare();
    expect(seen['background:discarded']).toMatchObject([
      { jobId: first, reason: 'span-changed', discarded: 1 },
    ]);

    const prepared = await growPast(session, 8_000);
    expect(seen['background:start']).toHaveLength(2);
    expect(seen['background:applied']).toHaveLength(1);
    expect(seen['background:applied']![0]!.jobId).not.toBe(first);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(JSON.stringify(prepared.messages)).not.toContain('result ');
    expectValid(prepared);
  });

  it('a compaction by another worker moves the pivot: the prepared summary is discarded, never applied over it', async () => {
    const store = memoryStore();
    const model = slowModel(50);
    const session = await openSession(store, 's', options(llmSummarizer({ model })));
    const seen = recorder(session);
    await growPast(session, 4_800);
    await next(session, 'background:prepared');
    const other = await openSession(store, 's', { ...options(llmSummarizer({ model })), background: false });
    await other.compact();
    const pivotId = other.record.state.pivotId;
    await growPast(session, 8_000);
    expect(seen['background:discarded']).toMatchObject([{ reason: 'pivot-moved' }]);
    // A job made after that starts from the other worker's pivot; none from the old prefix is applied.
    for (const { pivot } of seen['background:applied'] ?? [])
      expect(pivot.pivot.previousPivotId).toBe(pivotId);
    const pivots = (await session.history()).filter((e) => e.kind === 'compaction');
    for (const p of pivots.slice(1)) expect(p.pivot.previousPivotId).toBe(pivotId);
    expect(pivots[0]!.id).toBe(pivotId);
  });

  it('a failed background summary is discarded and the hard threshold compacts as usual', async () => {
    const model = slowModel(20, 1);
    const session = await openSession(memoryStore(), 's', options(llmSummarizer({ model })));
    const seen = recorder(session);
    await growPast(session, 4_800);
    await sleep(60); // the first attempt has failed
    const prepared = await growPast(session, 8_000);
    expect(seen['background:discarded']?.[0]).toMatchObject({ reason: 'failed' });
    expect(prepared.compaction).toMatchObject({ status: 'compacted' });
    expectValid(prepared);
  });

  it('the worker gets a copy: a summarizer that edits its input cannot change the session', async () => {
    const vandal: Summarizer = {
      name: 'vandal',
      async summarize(request) {
        for (const e of request.plan.toSummarize) e.message.parts = [];
        return { text: 'Summary by the vandal.', details: { filesRead: [], filesModified: [] } };
      },
    };
    const session = await openSession(memoryStore(), 's', options(vandal));
    const seen = recorder(session);
    await growPast(session, 4_800);
    await next(session, 'background:prepared');
    const history = JSON.stringify(await session.history());
    const prepared = await growPast(session, 8_000);
    expect(seen['background:applied']).toHaveLength(1);
    expect(JSON.stringify((await session.history()).slice(0, JSON.parse(history).length))).toBe(history);
    expectValid(prepared);
  });

  it('a preset summary call (seed 004: agent prompt and tools, cleaned history) is the same call as on the agent path', async () => {
    const system = 'You are a coding agent.';
    const tools = [{ name: 'bash', description: 'Run a command', inputSchema: { type: 'object' } }];
    const open = async (background: boolean) => {
      const model = slowModel(0);
      const preset = presetOptions('seed-004', { summarizerModel: model });
      const session = await openSession(memoryStore(), 's', {
        ...preset,
        compaction: { ...preset.compaction, countTokens: undefined },
        budget: { ...preset.budget, absolute: 8_000 },
        model: 'm',
        limits: { contextWindow: 10_000, maxOutput: 1_000 },
        system,
        tools,
        background: background ? { soft: 0.6 } : false,
      });
      for (let i = 1; i <= 9; i++)
        await session.append([sizedUser(`Task ${i}: step ${i}`, 300), sizedSay(`Did ${i}`, 300)]);
      return { model, session };
    };
    const inline = await open(false);
    await inline.session.compact({ auto: true });
    const background = await open(true);
    await background.session.prepare();
    expect(background.session.background!.job).not.toBeNull();
    await next(background.session, 'background:prepared');
    const call = (m: MockLanguageModelV3) => {
      const { prompt, tools, toolChoice } = m.doGenerateCalls[0]!;
      return { prompt, tools, toolChoice };
    };
    expect(call(background.model)).toEqual(call(inline.model));
    expect(JSON.stringify(call(inline.model).prompt)).toContain(system);
  });

  it('rejects a soft threshold outside (0, 1) before writing anything', async () => {
    const store = memoryStore();
    for (const soft of [0, 1, 1.5, Number.NaN])
      await expect(openSession(store, 's', { model: 'm', background: { soft } })).rejects.toThrow(
        ConfigError,
      );
    expect(await store.getSession('s')).toBeUndefined();
  });
});
