/**
 * A compaction calls its model outside any lock; whatever other writers do meanwhile must survive
 * its commit. Here the summarizer's model call itself appends through a second handle on the
 * same store, so the message lands exactly between plan and commit.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { checkLog } from '../../bench/workers/check-log.js';
import { llmSummarizer } from '../../src/compact/index.js';
import type { CompactionEntry, Entry, Part } from '../../src/model/index.js';
import { messageText } from '../../src/model/index.js';
import { openSession, type Session, type SessionOptions } from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { reply } from '../presets/support.js';
import { turn, user } from './helpers.js';

const TYPED = 'typed while the summary was being written';

/** A summarizer whose model call runs `during` before it answers. */
function summarizer(during: () => Promise<unknown>) {
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      await during();
      return reply('The user asked for a request; the work so far is done.');
    },
  });
  return llmSummarizer({ model });
}

function options(during: () => Promise<unknown>, plan = {}): SessionOptions {
  return {
    model: 'm',
    limits: { contextWindow: 20_000, maxOutput: 2_000 },
    prune: false,
    compaction: { summarizer: summarizer(during), plan },
  };
}

async function filled(store: Store, opts: SessionOptions): Promise<Session> {
  const session = await openSession(store, 's', opts);
  await session.append(turn('a request', 4, 3_000));
  await session.append(turn('latest', 2, 1_000, 'l'));
  return session;
}

/** Where the message typed during the compaction sits against the pivot. */
async function placement(store: Store) {
  const entries = await store.loadFrom('s', 0);
  const seqOf = (id: string | null) => entries.find((e) => e.id === id)?.seq;
  const pivot = entries.find((e): e is CompactionEntry => e.kind === 'compaction')!;
  const typed = entries.find((e) => e.kind === 'message' && messageText(e.message).startsWith(TYPED))!;
  return {
    entries,
    pivot,
    typed,
    summarizedThrough: seqOf(pivot.pivot.summarizedThroughId)!,
    firstKept: seqOf(pivot.pivot.firstKeptId),
  };
}

/** The message is in the context a model gets next, after the summary. */
async function expectShownAfterSummary(session: Session, entries: Entry[]): Promise<void> {
  const text = JSON.stringify((await session.prepare({ format: 'openai' })).messages);
  expect(text.indexOf(TYPED)).toBeGreaterThan(text.indexOf('the work so far is done'));
  expect(text.indexOf('the work so far is done')).toBeGreaterThan(-1);
  expect(session.activeEntries()).toEqual(entries.filter((e) => e.seq >= session.record.state.activeFromSeq));
}

describe('a message appended while a compaction runs', () => {
  for (const [layout, plan] of [
    ['a kept tail', {}],
    ['no kept tail', { keepNone: true }],
  ] as const) {
    it(`lands after the summarized span, in the view (${layout})`, async () => {
      const store = memoryStore();
      let other: Session | undefined;
      const session = await filled(
        store,
        options(() => other!.append(user(TYPED)), plan),
      );
      other = await openSession(
        store,
        's',
        options(async () => {}),
      );
      expect((await session.compact()).status).toBe('compacted');

      const { entries, pivot, typed, summarizedThrough, firstKept } = await placement(store);
      expect(typed.seq).toBeGreaterThan(summarizedThrough);
      expect(typed.seq).toBeLessThan(pivot.seq);
      expect(firstKept).toBeLessThanOrEqual(typed.seq);
      expect(checkLog(entries, (await store.getSession('s'))!).problems).toEqual([]);
      await expectShownAfterSummary(session, entries);
      await expectShownAfterSummary(other, entries);
    });
  }

  it('does not make the compaction look useless, however large it is', async () => {
    const store = memoryStore();
    let other: Session | undefined;
    // More than the compaction saves: compared with the context before it, the one after is larger.
    const big = `${TYPED} ${'and a long paste of logs '.repeat(2_500)}`;
    const session = await filled(
      store,
      options(() => other!.append(user(big))),
    );
    other = await openSession(
      store,
      's',
      options(async () => {}),
    );
    const started = session.estimate().tokens;
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    if (outcome.status !== 'compacted') return;
    expect(outcome.tokensAfter).toBeGreaterThan(started);
    expect(outcome.tokensBefore).toBeGreaterThan(outcome.tokensAfter);
    expect(outcome.pivot.pivot.tokensBefore).toBe(outcome.tokensBefore);
  });

  it('while two workers compact the same window: one pivot, the message kept', async () => {
    const store = memoryStore();
    let second: Promise<unknown> = Promise.resolve();
    let other: Session | undefined;
    // The first worker's model answers only after the second worker compacted and appended.
    const first = await filled(
      store,
      options(() => second),
    );
    other = await openSession(
      store,
      's',
      options(async () => {}),
    );
    const racing = first.compact();
    second = other.compact().then(() => other!.append(user(TYPED)));
    const [a, b] = await Promise.all([racing, second.then(() => null)]);
    expect(a.status).toBe('skipped');
    expect(b).toBeNull();
    const { entries, pivot, typed } = await placement(store);
    expect(entries.filter((e) => e.kind === 'compaction')).toHaveLength(1);
    expect(typed.seq).toBeGreaterThan(pivot.seq);
    expect(checkLog(entries, (await store.getSession('s'))!).problems).toEqual([]);
    await expectShownAfterSummary(first, entries);
  });
});

describe('a tool result whose call another worker summarized while it ran', () => {
  it('is stored on its call in the history, with a warning, and nothing is thrown', async () => {
    const store = memoryStore();
    const runner = await filled(
      store,
      options(async () => {}),
    );
    await runner.append({
      role: 'assistant',
      parts: [{ type: 'tool', callId: 'build', name: 'bash', input: { command: 'make' }, state: 'running' }],
    });
    // A layout that keeps nothing summarizes the waiting call too.
    const other = await openSession(
      store,
      's',
      options(async () => {}, { keepNone: true }),
    );
    expect((await other.compact()).status).toBe('compacted');
    const warnings: string[] = [];
    runner.on('warning', (w) => warnings.push(w.message));
    await runner.recordToolResult('build', { output: 'built in 3 s' });
    expect(warnings).toEqual([expect.stringContaining("tool call 'build' came after a compaction")]);
    const entries = await store.loadFrom('s', 0);
    const call = entries
      .flatMap((e): Part[] => (e.kind === 'message' ? e.message.parts : []))
      .find((p) => p.type === 'tool' && p.callId === 'build');
    expect(call).toMatchObject({ state: 'completed', output: 'built in 3 s' });
    expect(checkLog(entries, (await store.getSession('s'))!).problems).toEqual([]);
    await expect(runner.recordToolResult('never-called', { output: 'x' })).rejects.toThrow(
      /no pending or running tool call/,
    );
  });
});
