/**
 * Background compaction on PostgreSQL through pg-boss (condense/pg-boss), against the server on
 * 127.0.0.1:5432, database `test`, in a pg-boss schema of its own. Unreachable: skipped, except
 * with CI=true, where it fails.
 */
import { connect } from 'node:net';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmSummarizer } from '../../src/compact/index.js';
import { validate } from '../../src/context/index.js';
import { pgBossQueue } from '../../src/pg-boss.js';
import { openSession, type Prepared, type Session, type SessionEvents } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { reply, sizedSay, sizedUser } from '../presets/support.js';
import { EMPTY_JOB } from './pg-boss-job.js';

const PG_URL = process.env.CONDENSE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `condense_test_${Math.random().toString(36).slice(2, 10)}`;

function reachable(): Promise<boolean> {
  const { hostname, port } = new URL(PG_URL);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 5432) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}
const up = await reachable();
if (!up && process.env.CI === 'true') throw new Error(`PostgreSQL is unreachable at ${PG_URL} (CI=true)`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function slowModel(delay: number): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      calls += 1;
      await sleep(delay);
      return reply(`Summary ${calls}: numbered tasks, worked through in order.`);
    },
  });
}

let turns = 0;
async function growPast(session: Session, tokens: number): Promise<Prepared> {
  let prepared: Prepared;
  do {
    turns += 1;
    await session.append([sizedUser(`Task ${turns}: step ${turns}`, 300), sizedSay(`Did ${turns}`, 300)]);
    prepared = await session.prepare();
  } while (session.estimate().tokens <= tokens && prepared.compaction === null);
  return prepared;
}

function next<K extends keyof SessionEvents>(session: Session, event: K): Promise<SessionEvents[K]> {
  return new Promise((resolve) => {
    const off = session.on(event, (e) => {
      off();
      resolve(e);
    });
  });
}

const limits = { contextWindow: 10_000, maxOutput: 1_000 };

describe.skipIf(!up)('pg-boss compaction queue', () => {
  const queues: { close(): Promise<void> }[] = [];
  const queue = async (options: Partial<Parameters<typeof pgBossQueue>[0]> = {}) => {
    const q = await pgBossQueue({ connectionString: PG_URL, schema: SCHEMA, pollMillis: 25, ...options });
    queues.push(q);
    return q;
  };
  let admin: Awaited<ReturnType<typeof pgBossQueue>>;
  beforeAll(async () => {
    admin = await queue();
  });
  afterAll(async () => {
    for (const q of queues.splice(0).reverse()) await q.close();
    const { default: PgBoss } = await import('pg-boss');
    const boss = new PgBoss({ connectionString: PG_URL, schema: SCHEMA, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.getDb().executeSql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`, []);
    await boss.stop({ graceful: false, timeout: 1_000 });
  });

  it('a summary worked by another pg-boss instance (another process) is applied at the hard threshold', async () => {
    const model = slowModel(100);
    // The agent's side only submits and waits; the worker's side has the summarizer.
    const client = await queue();
    await queue({ summarizer: llmSummarizer({ model }) });
    const session = await openSession(memoryStore(), 'pg-1', {
      model: 'm',
      limits,
      prune: false,
      compaction: { summarizer: llmSummarizer({ model: slowModel(0) }) },
      background: { soft: 0.6, queue: client },
    });
    const applied: SessionEvents['background:applied'][] = [];
    session.on('background:applied', (e) => applied.push(e));
    await growPast(session, 4_800);
    const { id: jobId } = session.background!.job!;
    // The job is a row holding the whole input as JSON.
    const row = await admin.boss.getJobById<{ sessionId: string; plan: { toSummarize: unknown[] } }>(
      'condense-summaries',
      jobId,
    );
    expect(row?.data.sessionId).toBe('pg-1');
    expect(row?.data.plan.toSummarize.length).toBeGreaterThan(0);
    await next(session, 'background:prepared');

    const prepared = await growPast(session, 8_000);
    expect(prepared.compaction).toMatchObject({ status: 'compacted' });
    expect(applied).toMatchObject([{ jobId }]);
    expect(model.doGenerateCalls).toHaveLength(1);
    const pivot = applied[0]!.pivot.pivot;
    expect(pivot.summary).toContain('Summary 1');
    expect(pivot.summarizer).toBe('llm');
    expect(validate(prepared.messages, 'ai-sdk')).toEqual([]);
    // Applied, its row is gone: nothing is left to pile up.
    expect(await admin.boss.getJobById('condense-summaries', jobId)).toBeNull();
  });

  it('a stale prepared summary is discarded and its row deleted; the normal compaction runs', async () => {
    const model = slowModel(50);
    const local = await queue({ summarizer: llmSummarizer({ model }), queue: 'condense-stale' });
    const store = memoryStore();
    const options = {
      model: 'm',
      limits,
      prune: false as const,
      compaction: { summarizer: llmSummarizer({ model }) },
    };
    const session = await openSession(store, 'pg-2', { ...options, background: { queue: local } });
    const discarded: SessionEvents['background:discarded'][] = [];
    session.on('background:discarded', (e) => discarded.push(e));
    await growPast(session, 4_800);
    const { id: jobId } = session.background!.job!;
    await next(session, 'background:prepared');
    // Another worker compacts the session: the prepared summary covers a prefix that is gone.
    await (await openSession(store, 'pg-2', options)).compact();
    const prepared = await growPast(session, 8_000);
    expect(discarded[0]).toMatchObject({ jobId, reason: 'pivot-moved', discarded: 1 });
    expect(await local.boss.getJobById('condense-stale', jobId)).toBeNull();
    expect(validate(prepared.messages, 'ai-sdk')).toEqual([]);
  });

  /** A queue whose worker fails with `message`, and a job submitted to it. */
  async function failedJob(message: string, name: string) {
    const failing = {
      name: 'down',
      summarize: async () => {
        throw new Error(message);
      },
    };
    const q = await queue({ summarizer: failing, queue: name });
    const id = await q.submit(EMPTY_JOB);
    return { q, id, name };
  }

  it('a job whose worker failed ends as failed, and wait() says why', async () => {
    const { q, id } = await failedJob('summarizer is down', 'condense-failing');
    expect(await q.wait(id)).toEqual({ state: 'failed', error: 'summarizer is down' });
  });

  it('a failure echoing the key is stored and reported masked', async () => {
    const key = 'sk-proj-Abc123Def456Ghi789Jkl012';
    const { q, id, name } = await failedJob(`Incorrect API key provided: ${key}`, 'condense-failing-key');
    expect(await q.wait(id)).toEqual({ state: 'failed', error: 'Incorrect API key provided: ***' });
    // pg-boss keeps the failure in its table: masked there too.
    expect(JSON.stringify(await q.boss.getJobById(name, id))).not.toContain(key);
  });
});
