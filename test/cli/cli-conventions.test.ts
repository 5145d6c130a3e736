/**
 * Command-line conventions: read-only commands never create a database, usage errors exit 2 as
 * the help says, `--version`, options before the command, quiet when the reader of the output
 * stops (`| head`), and an eval of a folder that is not there fails.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { dropSchema, PG_URL, pgReachable, testSchema } from '../store/pg-helpers.js';
import { type CliResult, cliAsync, freshDb, json, ROOT, tempDir } from './support.js';

const dir = tempDir();
const postgres = await pgReachable();
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

describe('read-only commands on a database that is not there', () => {
  const missing = join(dir, 'nothere', 'x.db');
  it.each([
    ['sessions'],
    ['stats', 's'],
    ['context', 's'],
    ['export', 's'],
    ['history', 's'],
    ['tree', 's'],
    ['search', 'word'],
    ['archive', 'read', 's'],
    ['events', 'list'],
  ])('%s: an error, and nothing created', async (...command) => {
    const r = await cliAsync([...command, '--db', missing]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `condense: no database at ${missing}: nothing to read, and nothing was created (give --db PATH of an existing one)\n`,
    );
    expect(existsSync(join(dir, 'nothere'))).toBe(false);
  });

  it('a JSONL store folder (the pegasus preset) likewise', async () => {
    const folder = join(dir, 'no-sessions-here');
    const r = await cliAsync(['history', 's', '--preset', 'pegasus', '--db', folder]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^condense: no JSONL store folder at /);
    expect(existsSync(folder)).toBe(false);
  });

  it.skipIf(!postgres)('a Postgres schema is checked, not created', async () => {
    const schema = testSchema();
    const r = await cliAsync(['sessions', '--pg', PG_URL, '--pg-schema', schema]);
    const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
    const { rows } = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    await dropSchema(admin, schema); // should there be one to drop
    await admin.end();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/run: condense migrate --pg URL/);
    expect(rows).toEqual([]);
  });
});

describe('usage', () => {
  it.each([
    [['sessions', '--bogus'], "error: unknown option '--bogus'"],
    [['nosuch'], "error: unknown command 'nosuch'"],
    [['stats'], "error: missing required argument 'session'"],
    [[], 'Usage: condense'],
  ])('%j is a usage error: exit 2, as the help says', async (args, said) => {
    const r = await cliAsync(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(said);
  });

  it('--version and -V print the version; --help exits 0', async () => {
    const [long, short, help] = await Promise.all([
      cliAsync(['--version']),
      cliAsync(['-V']),
      cliAsync(['--help']),
    ]);
    expect([long.stdout, short.stdout]).toEqual([`${VERSION}\n`, `${VERSION}\n`]);
    expect([long.status, short.status, help.status]).toEqual([0, 0, 0]);
    expect(help.stdout).toContain('Exit status: 0 success, 1 `validate` found violations, 2 error');
  });
});

describe('options before the command', () => {
  const db = freshDb(dir);
  beforeAll(async () => {
    const store = sqliteStore({ path: db });
    const session = await openSession(store, 'big');
    for (let i = 0; i < 300; i++)
      await session.append({ role: 'user', content: `line ${i} ${'x'.repeat(2_000)}` });
    await store.close();
  });

  it('count as the command’s own, wherever they stand', async () => {
    const [before, after, mixed] = await Promise.all([
      cliAsync(['--db', db, '--json', 'sessions']),
      cliAsync(['sessions', '--db', db, '--json']),
      cliAsync(['--db', db, 'sessions', '--json']),
    ]);
    const ids = (r: CliResult) => json<{ id: string }[]>(r).map((s) => s.id);
    expect([ids(before), ids(after), ids(mixed)]).toEqual([['big'], ['big'], ['big']]);
  });

  it('a reader that stops early (`| head`) gets no error noise, and the exit is clean', async () => {
    const tsx = createRequire(join(ROOT, 'x.js')).resolve('tsx');
    const child = spawn(
      process.execPath,
      ['--import', tsx, join(ROOT, 'src/cli/main.ts'), 'export', 'big', '--db', db],
      {
        cwd: ROOT,
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    // Like `head -c`: read one chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });
});

describe('condense eval', () => {
  it('--data naming no folder fails instead of passing on nothing', async () => {
    const r = await cliAsync(['eval', '--data', join(dir, 'nonexistent')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^condense: .*LoCoMo data .* is missing/);
  });
});
