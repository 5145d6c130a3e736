import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OLD_NAME_IMPORT } from './old-name.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RECORDER = fileURLToPath(new URL('record-loads.mjs', import.meta.url));
let out: string;

// The build under test is made fresh here (a stale dist/ would prove nothing), in a folder whose
// node_modules is the project's so bare imports resolve as in an installed package.
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'condense-graph-'));
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }');
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'));
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      join(out, 'dist'),
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The packages a fresh node process loads when it imports `file`: ESM loads seen by a load hook,
 * plus the CommonJS module cache (modules that CommonJS packages require are invisible to the
 * hook on Node 20).
 */
function packagesLoadedBy(file: string): string[] {
  const log = join(out, `${file}.log`);
  const script = `
    import { createRequire } from 'node:module';
    await import(process.argv[1]);
    console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  const stdout = execFileSync(
    process.execPath,
    ['--import', RECORDER, '--input-type=module', '-e', script, join(out, 'dist', file)],
    { env: { ...process.env, CONDENSE_LOAD_LOG: log }, encoding: 'utf8' },
  );
  const paths = [...readFileSync(log, 'utf8').split('\n'), ...(JSON.parse(stdout) as string[])];
  const names = paths.map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.[1]);
  return [...new Set(names.filter((n) => n !== undefined))].sort();
}

const CLI_ONLY = ['commander', '@ai-sdk/openai-compatible'];

describe("the build's type declarations", () => {
  it("name the package by its name, never by the old 'condense'", () => {
    const dts = readdirSync(join(out, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.d.ts'),
    );
    expect(dts.length).toBeGreaterThan(20);
    for (const file of dts)
      expect(readFileSync(join(out, 'dist', file), 'utf8'), file).not.toMatch(OLD_NAME_IMPORT);
  });
});

describe('what each entry point loads', () => {
  it('the root loads the AI SDK but neither SQLite, Postgres nor CLI-only packages', () => {
    const loaded = packagesLoadedBy('index.js');
    // The detector sees ESM packages: without this, an empty list would pass.
    expect(loaded).toContain('ai');
    expect(loaded).not.toContain('better-sqlite3');
    expect(loaded).not.toContain('pg-boss');
    expect(loaded).not.toContain('pg');
    for (const name of CLI_ONLY) expect(loaded).not.toContain(name);
    // Optional or lazily loaded: the exact tokenizer, and the configuration files' YAML parser.
    expect(loaded).not.toContain('gpt-tokenizer');
    expect(loaded).not.toContain('yaml');
  });

  it('condense/ai-sdk loads neither SQLite nor CLI-only packages', () => {
    const loaded = packagesLoadedBy('ai-sdk.js');
    expect(loaded).toContain('zod');
    expect(loaded).not.toContain('better-sqlite3');
    for (const name of CLI_ONLY) expect(loaded).not.toContain(name);
  });

  it('condense/jsonl loads neither SQLite nor CLI-only packages', () => {
    const loaded = packagesLoadedBy('jsonl.js');
    expect(loaded).toContain('zod');
    expect(loaded).not.toContain('better-sqlite3');
    for (const name of CLI_ONLY) expect(loaded).not.toContain(name);
  });

  it('condense/sqlite loads better-sqlite3 and no CLI-only package', () => {
    const loaded = packagesLoadedBy('sqlite.js');
    expect(loaded).toContain('better-sqlite3');
    expect(loaded).not.toContain('pg');
    for (const name of CLI_ONLY) expect(loaded).not.toContain(name);
  });

  it('condense/postgres loads pg and neither SQLite nor CLI-only packages', () => {
    const loaded = packagesLoadedBy('postgres.js');
    expect(loaded).toContain('pg');
    expect(loaded).not.toContain('better-sqlite3');
    for (const name of CLI_ONLY) expect(loaded).not.toContain(name);
  });

  it('condense/pg-boss loads pg-boss (and pg), not SQLite', () => {
    const loaded = packagesLoadedBy('pg-boss.js');
    expect(loaded).toContain('pg-boss');
    expect(loaded).toContain('pg');
    expect(loaded).not.toContain('better-sqlite3');
  });
});

/** Each src file's imported specifiers (static and dynamic), keyed by its path under src/. */
function sourceImports(): Map<string, string[]> {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );
  const specifier = /(?:from|import)\s*\(?\s*'([^']+)'/g;
  return new Map(
    files.map((f) => [
      f,
      [...readFileSync(join(ROOT, 'src', f), 'utf8').matchAll(specifier)].map((m) => m[1]!),
    ]),
  );
}

describe('who imports what, in the source', () => {
  const imports = sourceImports();
  const importers = (test: (spec: string) => boolean) =>
    [...imports].filter(([, specs]) => specs.some(test)).map(([file]) => file);

  it('only src/cli imports CLI-only packages', () => {
    expect(importers((s) => CLI_ONLY.includes(s)).filter((f) => !f.startsWith('cli/'))).toEqual([]);
    // The check reads imports at all: main.ts does import commander.
    expect(importers((s) => s === 'commander')).toContain('cli/main.ts');
  });

  it('the evaluation harness is reached only from the CLI, never from the library', () => {
    const users = importers((s) => /(^|\/)eval\//.test(s) || s.startsWith('../eval/'));
    const outside = users.filter((f) => !f.startsWith('cli/') && !f.startsWith('eval/'));
    expect(outside).toEqual([]);
    // The check sees the import at all: the eval command loads the harness.
    expect(users).toContain('cli/cmd-eval.ts');
  });

  it('the SQLite store is reached only through the condense/sqlite entry', () => {
    expect(importers((s) => s === 'better-sqlite3').sort()).toEqual([
      'store/sqlite-checkpoint.ts',
      'store/sqlite-ledger.ts',
      'store/sqlite-parts.ts',
      'store/sqlite-schema.ts',
      'store/sqlite-search.ts',
      'store/sqlite-statements.ts',
      'store/sqlite.ts',
    ]);
    expect(importers((s) => /(^|\/)sqlite\.js$/.test(s)).sort()).toEqual(['cli/io.ts', 'sqlite.ts']);
  });

  it('the Postgres store is reached only through the condense/postgres entry', () => {
    const pgUsers = importers((s) => s === 'pg');
    expect(pgUsers.length).toBeGreaterThan(0);
    expect(pgUsers.filter((f) => !/^store\/postgres(-[a-z]+)?\.ts$/.test(f) && f !== 'postgres.ts')).toEqual(
      [],
    );
    // The CLI loads it dynamically, for a run given --pg only.
    expect(importers((s) => /(^|\/)postgres\.js$/.test(s)).sort()).toEqual([
      'cli/cmd-migrate.ts',
      'cli/io.ts',
      'postgres.ts',
    ]);
  });

  it('pg-boss is reached only through the condense/pg-boss entry', () => {
    expect(importers((s) => s === 'pg-boss')).toEqual(['integrations/pg-boss/queue.ts']);
    expect(importers((s) => /(^|\/)pg-boss\/queue\.js$/.test(s))).toEqual(['pg-boss.ts']);
  });
});
