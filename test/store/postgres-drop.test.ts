/**
 * Dropped connections (a failover, a proxy's idle timeout, an administrator): every connection of
 * a store under load is ended with pg_terminate_backend, three times. The process must live (pg
 * emits 'error' on the pool and on checked-out clients, which ends a process nobody listens in),
 * every write the store acknowledged must be stored once, and the store must keep working.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import type { SessionRecord } from '../../src/model/session.js';
import { postgresStore } from '../../src/postgres.js';
import { StoreConnectionError } from '../../src/store/errors.js';
import { landedChecks } from '../../src/store/postgres-landed.js';
import { CommitUnknownError, connectionLost } from '../../src/store/postgres-pool.js';
import { reconnecting } from '../../src/store/postgres-reconnect.js';
import { pgSql } from '../../src/store/postgres-sql.js';
import { type Store, VersionConflictError } from '../../src/store/store.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';
import { dropSchema, PG_URL, pgReachable, testSchema } from './pg-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = createRequire(join(ROOT, 'x.js')).resolve('tsx');
const CHILD = join(ROOT, 'test/store/pg-drop-child.ts');
const available = await pgReachable();
const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(admin, schema);
  await admin.end();
});

interface Run {
  status: number | null;
  lines: string[];
  stderr: string;
  killed: number;
}

/** Ends every connection of application `app`; how many there were. */
async function terminate(app: string): Promise<number> {
  const { rows } = await admin.query(
    'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1',
    [app],
  );
  return rows.filter((r) => r.ok).length;
}

/** Runs the child; after each 30 acknowledged writes ends its connections, three times, then stops it. */
function load(mode: 'own' | 'pool', schema: string): Promise<Run> {
  const app = `condense_drop_${schema}`;
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}application_name=${app}`;
  const child = spawn(process.execPath, ['--import', TSX, CHILD, url, schema, mode], { cwd: ROOT });
  let out = '';
  let stderr = '';
  let killed = 0;
  let rounds = 0;
  let busy = false;
  child.stdout.setEncoding('utf8').on('data', async (s: string) => {
    out += s;
    const acks = (out.match(/^ack /gm) ?? []).length;
    if (busy || acks < 30 * (rounds + 1)) return;
    busy = true;
    if (rounds < 3) killed += await terminate(app);
    else child.stdin.write('stop\n');
    rounds++;
    busy = false;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, lines: out.split('\n').filter(Boolean), stderr, killed }),
    );
  });
}

/** The user texts and completed tool results a session holds. */
function stored(entries: Entry[]) {
  const users: string[] = [];
  const results: string[] = [];
  for (const e of entries) {
    if (e.kind !== 'message') continue;
    for (const p of e.message.parts) {
      if (p.type === 'text' && e.message.role === 'user') users.push(p.text);
      if (p.type === 'tool' && p.state === 'completed') results.push(p.callId);
    }
  }
  return { users, results };
}

describe.skipIf(!available)('Postgres store: every connection ended mid-load', () => {
  it.each(['own', 'pool'] as const)(
    'the process lives and no acknowledged write is lost (%s pool)',
    async (mode) => {
      const schema = testSchema();
      schemas.push(schema);
      const run = await load(mode, schema);
      expect(run.stderr).not.toMatch(/Unhandled 'error' event|Connection terminated unexpectedly/);
      expect(run.status).toBe(0);
      expect(run.lines.at(-1)).toBe('done');
      expect(run.killed).toBeGreaterThanOrEqual(3);
      // The losses were absorbed: reads and writes went again on new connections.
      expect(run.lines.filter((l) => l.startsWith('error '))).toEqual([]);

      const store = postgresStore({ connectionString: PG_URL, schema });
      try {
        for (let w = 0; w < 4; w++) {
          const { users, results } = stored(await store.loadFrom(`drop-${w}`, 0));
          const acked = run.lines.filter((l) => l.startsWith('ack ') && l.split(' ')[2] === String(w));
          const ackedUsers = acked
            .filter((l) => l.startsWith('ack user'))
            .map((l) => (l.endsWith(' -1') ? `w${w} last` : `w${w} m${l.split(' ')[3]}`));
          const ackedResults = acked
            .filter((l) => l.startsWith('ack result'))
            .map((l) => `call-${w}-${l.split(' ')[3]}`);
          expect(ackedUsers).toContain(`w${w} last`);
          // Every acknowledged write is there, once; nothing is stored twice.
          expect(users.filter((u) => ackedUsers.includes(u)).sort()).toEqual([...ackedUsers].sort());
          expect(new Set(users).size).toBe(users.length);
          for (const id of ackedResults) expect(results).toContain(id);
        }
      } finally {
        await store.close();
      }
    },
    120_000,
  );
});

describe.skipIf(!available)('Postgres store: a COMMIT lost on the way', () => {
  const lost = () => new CommitUnknownError(new Error('Connection terminated unexpectedly'));

  /** A store in a fresh schema holding one empty session 's', and the landed checks on it. */
  async function withSession(
    test: (store: Store, checks: ReturnType<typeof landedChecks>, record: SessionRecord) => Promise<void>,
  ) {
    const schema = testSchema();
    schemas.push(schema);
    const store = postgresStore({ connectionString: PG_URL, schema });
    try {
      const record = sessionRecord('s');
      await store.createSession(record);
      await test(store, landedChecks(admin, pgSql(schema)), record);
    } finally {
      await store.close();
    }
  }

  it('landed, not landed, or another writer took the version: the stored rows tell', () =>
    withSession(async (store, checks, record) => {
      const first = textEntries('s', 2);
      const commit = commitAfter(record, first);
      // Not written: the session is at the version the write expected, so it is made again.
      expect(await checks.append(first, commit)()).toBeNull();
      const after = await store.append(first, commit);
      expect(await checks.append(first, commit)()).toEqual({ value: after });
      // Another writer moved on since: still ours, as our commit left the session.
      const more = textEntries('s', 1, 2);
      await store.append(more, commitAfter(after, more));
      expect((await checks.append(first, commit)())?.value).toMatchObject({ version: 1, nextSeq: 2 });
      // A write that did not land while another took its version: a conflict, which the Log retries.
      const other = textEntries('s', 1, 2).map((e) => ({ ...e, id: 'not-stored' }));
      await expect(checks.append(other, commitAfter(after, other))()).rejects.toThrow(VersionConflictError);
    }));

  it('a write whose COMMIT landed is not made twice; one that did not is made again', () =>
    withSession(async (store, checks, record) => {
      const entries = textEntries('s', 2);
      const commit = commitAfter(record, entries);
      let calls = 0;
      // The first attempt commits, then loses the reply.
      const landedFirst = async () => {
        calls++;
        const r = await store.append(entries, commit);
        if (calls === 1) throw lost();
        return r;
      };
      expect((await reconnecting('append', landedFirst, checks.append(entries, commit))).version).toBe(1);
      expect(calls).toBe(1);
      // The first attempt loses its COMMIT before the server ran it.
      const next = textEntries('s', 2, 2);
      const commit2 = commitAfter({ ...record, version: 1, nextSeq: 2 }, next);
      calls = 0;
      const lostFirst = async () => (++calls === 1 ? Promise.reject(lost()) : store.append(next, commit2));
      expect((await reconnecting('append', lostFirst, checks.append(next, commit2))).version).toBe(2);
      expect(calls).toBe(2);
      expect((await store.loadFrom('s', 0)).map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    }));

  it('a connection that stays away ends in a clear, retryable error', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const policy = { deadlineMs: 50, firstDelayMs: 5, maxDelayMs: 10 };
    const error = await reconnecting('append', () => Promise.reject(down), undefined, policy).catch((e) => e);
    expect(error).toBeInstanceOf(StoreConnectionError);
    expect(error).toMatchObject({ retryable: true, maybeApplied: false, operation: 'append' });
    expect(error.message).toMatch(
      /^append: the connection to the database was lost .*nothing was written: retry$/,
    );
    // Other errors are the caller's at once.
    const other = await reconnecting(
      'append',
      () => Promise.reject(new Error('boom')),
      undefined,
      policy,
    ).catch((e) => e);
    expect(other.message).toBe('boom');
    expect(
      [down, { code: '57P01' }, new Error('Connection terminated unexpectedly')].map(connectionLost),
    ).toEqual([true, true, true]);
    expect([{ code: '23505' }, new Error('syntax error')].map(connectionLost)).toEqual([false, false]);
  });
});
