/**
 * A closed pgBossQueue lets the process exit. With a summarizer it used to keep it alive for good
 * (a worker's poll stranded by pg-boss ending its pool, and pg-boss's wait for that worker on a
 * timer): rc 124 at 90 s. Checked in a child process, which must exit by itself once it closed
 * the queue, idle or while a summary is being written.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PgBoss from 'pg-boss';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, pgReachable } from '../store/pg-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = createRequire(join(ROOT, 'x.js')).resolve('tsx');
const SCHEMA = `condense_test_exit_${Math.random().toString(36).slice(2, 10)}`;
const available = await pgReachable();

afterAll(async () => {
  if (!available) return;
  const boss = new PgBoss({ connectionString: PG_URL, schema: SCHEMA, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.getDb().executeSql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`, []);
  await boss.stop({ graceful: false, timeout: 1_000 });
});

/** Runs the child; its exit code, or 'alive' if it was still running 30 s after closing the queue. */
function run(mode: 'idle' | 'busy'): Promise<{ code: number | null | 'alive'; out: string; err: string }> {
  const child = spawn(
    process.execPath,
    ['--import', TSX, join(ROOT, 'test/integrations/pg-boss-exit-child.ts'), PG_URL, SCHEMA, mode],
    {
      cwd: ROOT,
    },
  );
  let out = '';
  let err = '';
  let alive: NodeJS.Timeout | undefined;
  let hung = false;
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    out += s;
    // A liveness bound, not a speed check: a closed queue that holds the process holds it for good.
    if (out.includes('closed') && !alive)
      alive = setTimeout(() => {
        hung = true;
        child.kill('SIGKILL');
      }, 30_000);
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(alive);
      resolve({ code: hung ? 'alive' : code, out, err });
    });
  });
}

describe.skipIf(!available)('a closed pgBossQueue', () => {
  it.each(['idle', 'busy'] as const)(
    'lets the process exit (%s worker)',
    async (mode) => {
      const r = await run(mode);
      expect(r.out).toContain('closed');
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
    },
    90_000,
  );
});
