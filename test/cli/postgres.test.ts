import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION } from '../../src/store/postgres-schema.js';
import { dropSchema, PG_URL, pgReachable, testSchema } from '../store/pg-helpers.js';
import { cliAsync, json, ok, smallChat, tempDir, writeFile } from './support.js';

const reachable = await pgReachable();
const schema = testSchema();
// Trust auth ignores the password; it is there to prove the CLI never prints it.
const PASSWORD = 'Pg-pass-w0rd-9f3k';
const url = (() => {
  const u = new URL(PG_URL);
  u.password = PASSWORD;
  return u.toString();
})();

describe.skipIf(!reachable)('condense on Postgres (--pg, CONDENSE_PG_URL)', () => {
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: PG_URL });
    await dropSchema(pool, schema);
    await pool.end();
  });

  it('migrate creates the schema once, then finds nothing to do; the password is never printed', async () => {
    const first = ok(await cliAsync(['migrate', '--pg', url, '--pg-schema', schema]));
    expect(first.stdout).toMatch(
      new RegExp(
        `postgres schema ${schema} at postgres://postgres:\\*\\*\\*@.*version 0 → ${PG_SCHEMA_VERSION}`,
      ),
    );
    const again = json(ok(await cliAsync(['migrate', '--pg', url, '--pg-schema', schema, '--json'])));
    expect(again).toMatchObject({ kind: 'postgres', schema, from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION });
    expect(first.stdout + first.stderr).not.toContain(PASSWORD);
  });

  it('import, sessions and search run on the server named by CONDENSE_PG_URL', async () => {
    const env = { ...process.env, CONDENSE_PG_URL: url, CONDENSE_PG_SCHEMA: schema };
    const file = writeFile(tempDir(), 'chat.json', smallChat());
    ok(await cliAsync(['import', file, '--session', 'chat'], 30_000, env));
    const [listed, found] = await Promise.all([
      cliAsync(['sessions', '--json'], 30_000, env),
      cliAsync(['search', 'fridays', '--json'], 30_000, env),
    ]);
    expect(json<{ id: string; entryCount: number }[]>(ok(listed))).toMatchObject([
      { id: 'chat', entryCount: 3 },
    ]);
    const hits = json<{ sessionId: string; snippet: string }[]>(ok(found));
    expect(hits.map((h) => h.sessionId)).toEqual(['chat', 'chat']);
    expect(hits[0]!.snippet).toMatch(/«Fridays»/);
    const missing = await cliAsync(['stats', 'nope', '--pg', url, '--pg-schema', schema], 30_000, env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no session 'nope' in postgres:\/\/(postgres:)?\*\*\*@127\.0\.0\.1/);
    expect(missing.stderr).not.toContain(PASSWORD);
  });

  it('an unreachable server fails the command (exit 2) without printing the password', async () => {
    const down = new URL(url);
    down.port = '1';
    const r = await cliAsync(['sessions', '--pg', down.toString()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ECONNREFUSED/);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
  });

  it('refuses --db and --pg together', async () => {
    const r = await cliAsync(['sessions', '--db', 'x.db', '--pg', url]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/either --db or --pg/);
  });
});
