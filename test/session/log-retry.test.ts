/**
 * A write that loses a compare-and-swap race is computed again from what changed and committed,
 * without the agent seeing it: reading only the entries other writers appended, the held range
 * again when parts were replaced, the window anew when a pivot moved; and a time bound, not a
 * count of attempts, decides when a conflict is finally thrown.
 */
import { describe, expect, it } from 'vitest';
import { countingStore } from '../../bench/counting-store.js';
import { tallyWriters } from '../../bench/workers/check.js';
import { checkLog } from '../../bench/workers/check-log.js';
import type { WorkerConfig } from '../../bench/workers/protocol.js';
import { messageText } from '../../src/model/index.js';
import type { SessionRecord, SessionState } from '../../src/model/session.js';
import { openSession } from '../../src/session/index.js';
import { REWRITES_KEPT, staleFrom, withRewrite } from '../../src/session/log-sync.js';
import { DEFAULT_RETRY, retryDelay } from '../../src/session/retry.js';
import { memoryStore, VersionConflictError } from '../../src/store/index.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';
import { turn, user } from './helpers.js';

describe('retryDelay', () => {
  const policy = { baseDelayMs: 1, maxDelayMs: 50, deadlineMs: 1_000 };

  it('retries at once, then draws from a range that doubles with each conflict, up to the cap', () => {
    const longest = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelay(n, 0, policy, () => 0.999_999));
    expect(longest.map((d) => Math.round(d!))).toEqual([0, 1, 2, 4, 8, 16, 32, 50, 50]);
    expect(retryDelay(5, 0, policy, () => 0)).toBe(0);
  });

  it('gives up once the deadline is spent, and never waits past it', () => {
    expect(retryDelay(3, 1_000, policy)).toBeNull();
    expect(retryDelay(20, 990, policy, () => 0.999)).toBeLessThanOrEqual(10);
    expect(DEFAULT_RETRY.deadlineMs).toBeGreaterThanOrEqual(10_000);
  });
});

const opts = { prune: false as const };

describe('staleFrom', () => {
  const record = (nextSeq: number, rewrites: number, rewritten: [number, number][], activeFromSeq = 0) =>
    ({ nextSeq, state: { activeFromSeq, rewrites, rewritten } }) as unknown as SessionRecord;

  it('is the held nextSeq after appends, the lowest seq rewritten since, or null when unknown', () => {
    expect(staleFrom(record(10, 2, [[2, 3]]), record(14, 2, [[2, 3]]))).toBe(10);
    expect(
      staleFrom(
        record(10, 2, [[2, 3]]),
        record(14, 4, [
          [2, 3],
          [3, 12],
          [4, 7],
        ]),
      ),
    ).toBe(7);
    expect(staleFrom(record(10, 2, []), record(14, 4, [[4, 7]]))).toBeNull(); // rewrite 3 forgotten
    expect(staleFrom(record(10, 0, []), record(9, 0, []))).toBeNull();
    expect(staleFrom(record(10, 0, [], 5), record(12, 0, [], 3))).toBeNull();
  });

  it('remembers the last REWRITES_KEPT rewrites', () => {
    let state = {} as SessionState;
    for (let i = 0; i < REWRITES_KEPT + 3; i++) state = withRewrite(state, state, i);
    expect(state.rewrites).toBe(REWRITES_KEPT + 3);
    expect(state.rewritten).toHaveLength(REWRITES_KEPT);
    expect(state.rewritten![0]).toEqual([4, 3]);
  });
});

describe('a write that lost the race', () => {
  it('reads only the entries appended since, then lands after them', async () => {
    const shared = memoryStore();
    const a = await openSession(shared, 's', opts);
    for (let i = 0; i < 100; i++) await a.append(user(`old ${i}`));
    const counted = countingStore(shared);
    const b = await openSession(counted.store, 's', opts);
    await a.append([user('new 1'), user('new 2')]);
    const before = counted.rows();
    const [entry] = await b.append(user('from b'));
    expect(counted.rows() - before).toBe(2); // not the 102-entry window
    expect(entry!.seq).toBe(102);
    expect(b.activeEntries()).toEqual(await shared.loadFrom('s', 0));
    expect(b.record).toEqual(await shared.getSession('s'));
  });

  it('reads again from the first entry whose parts another writer replaced, not the window', async () => {
    const shared = memoryStore();
    const a = await openSession(shared, 's', opts);
    for (let i = 0; i < 50; i++) await a.append(user(`old ${i}`));
    await a.recordStep({
      message: {
        role: 'assistant',
        parts: [{ type: 'tool', callId: 'c1', name: 'bash', input: {}, state: 'running' }],
      },
    });
    const counted = countingStore(shared);
    const b = await openSession(counted.store, 's', opts);
    await a.recordToolResult('c1', { output: 'done' });
    const before = counted.rows();
    await b.append(user('next'));
    expect(counted.rows() - before).toBe(1); // the step whose call got its result
    const tool = b
      .activeEntries()
      .flatMap((e): unknown[] => (e.kind === 'message' ? e.message.parts : []))[50];
    expect(tool).toMatchObject({ type: 'tool', state: 'completed', output: 'done' });
    expect(b.activeEntries()).toEqual(await shared.loadFrom('s', 0));
    expect(b.record.state.rewritten).toEqual([[1, 50]]);
  });

  it('drops what another writer’s compaction left behind and reads only what it appended', async () => {
    const shared = memoryStore();
    const small = { ...opts, model: 'm', limits: { contextWindow: 20_000, maxOutput: 2_000 } };
    const a = await openSession(shared, 's', small);
    await a.append(turn('a request', 4, 3_000));
    await a.append(turn('latest', 2, 1_000, 'l'));
    const counted = countingStore(shared);
    const b = await openSession(counted.store, 's', small);
    expect((await a.compact()).status).toBe('compacted');
    const before = counted.rows();
    await b.append(user('after the pivot'));
    expect(counted.rows() - before).toBe(1); // the pivot
    const { activeFromSeq } = b.record.state;
    expect(b.activeEntries()).toEqual(await shared.loadFrom('s', activeFromSeq));
    expect(b.activeEntries().some((e) => e.kind === 'compaction')).toBe(true);
  });

  it('is thrown, with nothing written, once it kept losing for the whole deadline', async () => {
    const shared = memoryStore();
    const a = await openSession(shared, 's', opts);
    const b = await openSession(shared, 's', opts);
    b.log.retry = { ...DEFAULT_RETRY, deadlineMs: 0 };
    await a.append(user('first'));
    await expect(b.append(user('lost'))).rejects.toBeInstanceOf(VersionConflictError);
    expect((await shared.loadFrom('s', 0)).map((e) => e.kind === 'message' && e.message)).toEqual([
      user('first'),
    ]);
  });
});

describe('eight handles appending to one session at once', () => {
  it('lose nothing, repeat nothing, keep each writer’s order and the running figures', async () => {
    const store = memoryStore();
    const writers = await Promise.all(Array.from({ length: 8 }, () => openSession(store, 's', opts)));
    const appends = 60;
    await Promise.all(
      writers.map(async (session, w) => {
        for (let n = 0; n < appends; n++) await session.append(user(`w${w}#${n}`));
      }),
    );
    const entries = await store.loadFrom('s', 0);
    expect(checkLog(entries, (await store.getSession('s'))!).problems).toEqual([]);
    const found = entries.map((e) => {
      const [, w, n] = /^w(\d+)#(\d+)$/.exec(e.kind === 'message' ? messageText(e.message) : '')!;
      return { session: 's', worker: Number(w), n: Number(n) };
    });
    const configs = writers.map((_, worker) => ({ worker, sessions: ['s'], appends }) as WorkerConfig);
    expect(tallyWriters(found, configs, [])).toEqual({ lost: 0, duplicated: 0, outOfOrder: 0, problems: [] });
  });
});

describe('the check before a turn on a store that reads a version alone', () => {
  it('reads only the version while nobody else wrote; the row and what was added once someone did', async () => {
    const shared = memoryStore();
    let rows = 0;
    const versioned = {
      ...shared,
      getSession: (id: string) => {
        rows++;
        return shared.getSession(id);
      },
      sessionVersion: async (id: string) => (await shared.getSession(id))?.version,
    };
    const a = await openSession(versioned, 's', opts);
    const b = await openSession(shared, 's', opts);
    await a.append(user('from a'));
    const before = rows;
    await a.prepare({ format: 'openai' });
    expect(rows).toBe(before);
    await b.append(user('from b'));
    const { messages } = await a.prepare({ format: 'openai' });
    expect(rows).toBe(before + 1);
    expect(JSON.stringify(messages)).toContain('from b');
    expect(a.record.version).toBe(b.record.version);
  });

  it('prepares the turn while the version is read, and again when it was not current, without the first error', async () => {
    const shared = memoryStore();
    const asked: string[] = [];
    const versioned = {
      ...shared,
      sessionVersion: async (id: string) => {
        asked.push('version');
        // Answered only after the turn was prepared on the held record.
        await new Promise((resolve) => setTimeout(resolve, 5));
        asked.push('answered');
        return (await shared.getSession(id))?.version;
      },
    };
    const a = await openSession(versioned, 's', opts);
    const b = await openSession(shared, 's', opts);
    // Only the other writer has a message: on a's held record there is nothing to send.
    await b.append(user('from b'));
    const { messages } = await a.prepare({ format: 'openai' });
    expect(JSON.stringify(messages)).toContain('from b');
    // The overlapped read, then the refresh's own read of the version.
    expect(asked).toEqual(['version', 'answered', 'version', 'answered']);
    await expect(openSession(versioned, 'empty', opts).then((s) => s.prepare())).rejects.toThrow(
      /nothing to send/,
    );
  });

  it('sends the version read before the turn is prepared, though its store sends it on a later tick', async () => {
    const shared = memoryStore();
    const order: string[] = [];
    const versioned = {
      ...shared,
      // As a pool does: the query leaves once a connection is handed out, on the next tick.
      sessionVersion: async (id: string) => {
        await new Promise((resolve) => process.nextTick(resolve));
        order.push('version sent');
        return (await shared.getSession(id))?.version;
      },
    };
    const counting = heuristicEstimator();
    const estimator = {
      ...counting,
      text: (text: string) => {
        order.push('turn counted');
        return counting.text(text);
      },
    };
    const session = await openSession(versioned, 's', { ...opts, estimator });
    await session.append(user('hello'));
    order.length = 0;
    await session.prepare({ format: 'openai', system: 'Be brief.' });
    // Its round trip overlaps the turn's own work instead of following it.
    expect(order[0]).toBe('version sent');
    expect(order).toContain('turn counted');
  });

  it('reads the version once the writes asked for before prepare() are done, and sends them', async () => {
    const shared = memoryStore();
    const versioned = {
      ...shared,
      // A slow write: still under way when prepare() is called.
      append: async (...args: Parameters<typeof shared.append>) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return shared.append(...args);
      },
      sessionVersion: async (id: string) => (await shared.getSession(id))?.version,
    };
    const session = await openSession(versioned, 's', opts);
    await session.append(user('first'));
    const late = session.append(user('not awaited'));
    const { messages } = await session.prepare({ format: 'openai' });
    expect(JSON.stringify(messages)).toContain('not awaited');
    await late;
  });

  it('keeps a turn whose own prune landed before the version was read, and what it pruned', async () => {
    const shared = memoryStore();
    let reads = 0;
    const versioned = {
      ...shared,
      sessionVersion: async (id: string) => {
        reads++;
        // Read after the turn's own prune was written.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return (await shared.getSession(id))?.version;
      },
    };
    const session = await openSession(versioned, 's', {
      limits: { contextWindow: 1_000_000 },
      prune: { protectTokens: 1_000, minimumTokens: 1_000, protectTurns: 1, when: 'turn' },
    });
    await session.append(turn('read everything', 8, 20_000));
    await session.append(user('now summarize'));
    const before = session.record.version;
    reads = 0;
    const prepared = await session.prepare();
    expect(session.record.version).toBe(before + 1);
    expect(prepared.pruned?.parts).toBeGreaterThan(0);
    expect(reads).toBe(1);
  });
});
