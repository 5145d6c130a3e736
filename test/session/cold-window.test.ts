import { describe, expect, it } from 'vitest';
import {
  compactionTarget,
  extractiveSummarizer,
  isNothingToCompact,
  planCompaction,
  recentGrowth,
  type Summarizer,
  tailCap,
} from '../../src/compact/index.js';
import { validate } from '../../src/context/index.js';
import { syntheticSession } from '../../src/demo/synthetic.js';
import { buildCompactionEntry, buildLog } from '../../src/model/build.js';
import type { Entry, Pivot } from '../../src/model/entry.js';
import { emptySessionState } from '../../src/model/session.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { stateFromEntries } from '../../src/session/state.js';
import { WindowNotHeldError } from '../../src/session/window-read.js';
import { memoryStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/store.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';
import { checkActiveWindow, checkLineage } from './invariants.js';

/** 2,500 messages (~2.6M tokens) against a 20k window: 100x what the window holds. */
const SIZE = 2_500;
/** A rule stated once, in the first entry: it must survive every chunk's summary. */
const PLANTED = 'Never push to the release branch without a signed tag.';
const OPTIONS: SessionOptions = { model: 'bench', limits: { contextWindow: 20_000, maxOutput: 2_000 } };

/** A rule an earlier summary recorded: a summary of the window must carry it on. */
const CARRIED = 'Always run the migrations before the tests.';

/**
 * An imported session written straight to the store: never compacted, or (`pivotAfter`) with a
 * summary after that many messages that kept the last ten of them.
 */
async function imported(store: Store, size = SIZE, pivotAfter?: number): Promise<void> {
  const messages = [...syntheticSession({ messages: size, seed: 3 })];
  messages[0] = { role: 'user', parts: [{ type: 'text', text: PLANTED }] };
  let entries: Entry[] = buildLog(messages, heuristicEstimator(), 'big');
  if (pivotAfter !== undefined) {
    const before = entries.slice(0, pivotAfter);
    const last = before.at(-1)!;
    const pivot = buildCompactionEntry(
      {
        summary: `Earlier work. ${CARRIED}`,
        summarizedThroughId: entries[pivotAfter - 11]!.id,
        firstKeptId: entries[pivotAfter - 10]!.id,
        tokensBefore: 1_000,
        tokensAfter: 100,
        auto: true,
        summarizer: 'extractive',
        details: { filesRead: [], filesModified: [], constraints: [CARRIED] },
        previousPivotId: null,
      },
      { sessionId: 'big', seq: last.seq + 1, parentId: last.id, id: 'big-pivot' },
      heuristicEstimator(),
    );
    const after = entries.slice(pivotAfter).map((e, k) => ({ ...e, seq: pivot.seq + 1 + k }));
    after[0] = { ...after[0]!, parentId: pivot.id };
    entries = [...before, pivot, ...after];
  }
  const last = entries.at(-1)!;
  const record = {
    id: 'big',
    createdAt: 1,
    updatedAt: 1,
    headId: null,
    version: 0,
    nextSeq: 0,
    metadata: {},
  };
  await store.createSession(
    { ...record, state: emptySessionState() },
    {
      entries,
      commit: {
        sessionId: 'big',
        expectedVersion: 0,
        headId: last.id,
        nextSeq: last.seq + 1,
        state: stateFromEntries(entries, emptySessionState()),
      },
    },
  );
}

/** The store, counting the entry rows its reads return. */
function counted(store: Store): { store: Store; rows: () => number } {
  let rows = 0;
  const proxy = new Proxy(store, {
    get(target, key: keyof Store) {
      if (key !== 'loadFrom') return target[key];
      return async (...args: Parameters<Store['loadFrom']>) => {
        const page = await target.loadFrom(...args);
        rows += page.length;
        return page;
      };
    },
  });
  return { store: proxy, rows: () => rows };
}

/** The pivot a compaction of the imported session writes with `summarizer`. */
async function compactedWith(summarizer: Summarizer): Promise<Pivot> {
  const store = memoryStore();
  await imported(store);
  const session = await openSession(store, 'big', { ...OPTIONS, compaction: { summarizer } });
  expect((await session.compact()).status).toBe('compacted');
  return storedPivot(store);
}

/** The pivot the imported session's last entry is. */
async function storedPivot(store: Store): Promise<Pivot> {
  const pivot = (await store.loadFrom('big', 0)).at(-1)!;
  if (pivot.kind !== 'compaction') throw new Error('expected a pivot');
  return pivot.pivot;
}

/** A compaction with `summarizer` fails with `error` and leaves the imported session as it was. */
async function expectUnchangedAfter(summarizer: Summarizer, error: string): Promise<void> {
  const store = memoryStore();
  await imported(store);
  const before = await store.getSession('big');
  const session = await openSession(store, 'big', { ...OPTIONS, compaction: { summarizer } });
  await expect(session.compact()).rejects.toThrow(error);
  expect(await store.getSession('big')).toStrictEqual(before);
  expect((await store.loadFrom('big', 0)).length).toBe(SIZE);
}

describe('a window far larger than the model is opened and compacted in bounded memory', () => {
  it('holds only its tail, streams the rest once into chunked summaries, and keeps what a whole plan keeps', async () => {
    const base = memoryStore();
    await imported(base);
    const { store, rows } = counted(base);
    const session = await openSession(store, 'big', OPTIONS);
    // Open reads the tail only: about two model windows of it.
    expect(rows()).toBeLessThan(SIZE / 10);
    expect(() => session.activeEntries()).toThrow(WindowNotHeldError);

    const prepared = await session.prepare({ format: 'anthropic' });
    expect(prepared.compaction?.status).toBe('compacted');
    // Every row read once: the tail at open, the rest streamed by the compaction.
    expect(rows()).toBe(SIZE);
    expect(validate(prepared.messages, 'anthropic')).toEqual([]);

    const history = await base.loadFrom('big', 0);
    checkLineage(history);
    checkActiveWindow(session, history);
    // The kept tail is the one a plan over the whole window would keep (whole turns up to the
    // tail's share of the automatic target: half the 16,000-token limit).
    const span = history.slice(0, SIZE);
    const target = compactionTarget({
      limit: 16_000,
      overhead: 0,
      tokensBefore: 0,
      auto: true,
      growthPerTurn: recentGrowth(span.filter((e) => e.kind === 'message')),
    });
    const whole = planCompaction(span, {
      keepTurns: Number.MAX_SAFE_INTEGER,
      keepTokens: tailCap(target),
    });
    const pivot = history.at(-1)!;
    if (isNothingToCompact(whole) || pivot.kind !== 'compaction') throw new Error('expected a pivot');
    expect(pivot.pivot.firstKeptId).toBe(whole.firstKeptId);
    expect(pivot.pivot.previousPivotId).toBeNull();
    // The streamed span's summary carried the first entry's rule all the way to the pivot.
    expect(pivot.pivot.details.constraints).toContain(PLANTED);
    expect(pivot.pivot.summary).toContain(PLANTED);
  });

  it('a summarizer that cannot read the span is given it in chunks, each summary carried into the next', async () => {
    const inner = extractiveSummarizer();
    const chunks: number[] = [];
    const pivot = await compactedWith({
      name: 'extractive',
      summarize: (request, signal) => {
        chunks.push(request.plan.toSummarize.length);
        return inner.summarize(request, signal);
      },
    });
    // 2.6M tokens in chunks of 800,000: three whole chunks, the rest, then the window's summary.
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    expect(chunks.reduce((a, n) => a + n, 0)).toBeGreaterThanOrEqual(SIZE - 200);
    expect(pivot.details.constraints).toContain(PLANTED);
    expect(pivot.summary).toContain(PLANTED);
  });

  it('a summarizer failing on a later chunk leaves the session exactly as it was', async () => {
    const inner = extractiveSummarizer();
    let calls = 0;
    await expectUnchangedAfter(
      {
        name: 'flaky',
        summarize: (request, signal) => {
          if (++calls === 2) throw new Error('rate limited');
          return inner.summarize(request, signal);
        },
      },
      'rate limited',
    );
  });

  it.each([
    ['never compacted', undefined],
    ['compacted once, keeping a tail', 300],
  ])(
    'a summarizer that reads the span itself writes the pivot one given the span whole writes (%s)',
    async (_layout, pivotAfter) => {
      // 600 messages (~620k tokens): one chunk either way (40 windows of 20k), 30 model windows.
      const pivots = [];
      for (const reads of [true, false]) {
        const store = memoryStore();
        await imported(store, 600, pivotAfter);
        const inner = extractiveSummarizer();
        const summarizer = reads ? inner : { name: inner.name, summarize: inner.summarize };
        const session = await openSession(store, 'big', { ...OPTIONS, compaction: { summarizer } });
        expect(() => session.activeEntries()).toThrow(WindowNotHeldError);
        expect((await session.compact()).status).toBe('compacted');
        const pivot = await storedPivot(store);
        // The running summary is dated when it is made: its quoted lines carry that time.
        const excerpts = pivot.details.extra?.excerpts as Array<[string, number, string, number]>;
        pivots.push({ ...pivot, excerpts: excerpts.map(([who, , text, value]) => [who, text, value]) });
      }
      // A stored summary is carried on (the first message's rule is in it no more), and the tail
      // it kept is summarized on top of it.
      if (pivotAfter === undefined) expect(pivots[0]!.details.constraints).toContain(PLANTED);
      else {
        expect(pivots[0]!.details.constraints).toContain(CARRIED);
        expect(pivots[0]!.previousPivotId).toBe('big-pivot');
      }
      expect(pivots[0]!.excerpts.length).toBeGreaterThan(10);
      expect({ ...pivots[0], details: undefined }).toEqual({ ...pivots[1], details: undefined });
      const { extra: _a, ...details0 } = pivots[0]!.details;
      const { extra: _b, ...details1 } = pivots[1]!.details;
      expect(details0).toEqual(details1);
    },
  );

  it('a span read by the summarizer starts a new summary when what it holds reaches a chunk, and carries each into the next', async () => {
    const inner = extractiveSummarizer();
    const summaries: number[] = [];
    const pivot = await compactedWith({
      name: 'extractive',
      summarize: inner.summarize,
      readSpan(previous) {
        const read = inner.readSpan!(previous);
        let entries = 0;
        return {
          read(page) {
            entries += page.length;
            read.read(page);
          },
          // As if each message held 2,000 tokens: 400 messages fill the 800,000 of a chunk.
          heldTokens: () => entries * 2_000,
          summarize(request, signal) {
            summaries.push(entries);
            return read.summarize(request, signal);
          },
        };
      },
    });
    // A summary each time the pages read reach 400 messages, then the held tail's.
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(summaries.slice(0, -1).every((n) => n >= 400)).toBe(true);
    expect(pivot.details.constraints).toContain(PLANTED);
    expect(pivot.summary).toContain(PLANTED);
  });

  it('a summarizer reading the span that fails leaves the session exactly as it was', async () => {
    const inner = extractiveSummarizer();
    await expectUnchangedAfter(
      {
        name: 'flaky',
        summarize: inner.summarize,
        readSpan(previous) {
          const read = inner.readSpan!(previous);
          return { ...read, summarize: async () => Promise.reject(new Error('out of memory')) };
        },
      },
      'out of memory',
    );
  });

  it('a compaction cancelled while the span streams stops at the next page and writes nothing', async () => {
    const store = memoryStore();
    await imported(store);
    const before = await store.getSession('big');
    const session = await openSession(store, 'big', OPTIONS);
    const controller = new AbortController();
    const pages: number[] = [];
    session.on('compaction:progress', ({ read }) => {
      pages.push(read);
      controller.abort(new Error('user cancelled'));
    });
    await expect(session.compact({ signal: controller.signal })).rejects.toThrow('user cancelled');
    // One page read, then the cancel is seen: the rest of the span is never read.
    expect(pages).toHaveLength(1);
    expect(pages[0]).toBeGreaterThan(0);
    expect(pages[0]).toBeLessThan((await store.loadFrom('big', 0)).length / 2);
    expect(await store.getSession('big')).toStrictEqual(before);
  });

  it('loadWindow reads the part not held, so the whole window can be inspected', async () => {
    const store = memoryStore();
    await imported(store);
    const session = await openSession(store, 'big', OPTIONS);
    await session.loadWindow();
    expect(session.activeEntries().map((e) => e.id)).toEqual(
      (await store.loadFrom('big', 0)).map((e) => e.id),
    );
  });
});
