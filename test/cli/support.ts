import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/**
 * Runs the real `condense` CLI as a child process. `node --import tsx src/cli/main.ts` measured
 * 1.1–1.5 s per run here against 2.4–2.6 s for `npx tsx` (npx resolves the package first), so the
 * node form is used; cwd is the project root so `tsx` resolves from its node_modules.
 */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Absolute, so that a run from another working directory (where a config file is looked for) works.
const CLI = ['--import', createRequire(join(ROOT, 'x.js')).resolve('tsx'), join(ROOT, 'src/cli/main.ts')];

/** The shared real-data folder, read in place (never copied into the repository). */
export const DATA_DIR = join(ROOT, '..', 'shared', 'data');
export const HAS_DATA = existsSync(DATA_DIR);
export const NO_DATA = `real data folder ${DATA_DIR} is absent: real-data CLI tests skipped`;

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** One CLI run, waited for (the brief's spawnSync form: simplest when steps depend on each other). */
export function cli(args: string[], timeout = 30_000, cwd = ROOT): CliResult {
  const r = spawnSync(process.execPath, [...CLI, ...args], { cwd, encoding: 'utf8', timeout });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * One CLI run as a promise, so independent runs can overlap (each spawn spends ~1 s starting up).
 * `env` replaces the whole environment (tests of which keys are sent must not see the caller's).
 */
export function cliAsync(args: string[], timeout = 30_000, env?: NodeJS.ProcessEnv): Promise<CliResult> {
  return run(process.execPath, [...CLI, ...args], timeout, env);
}

/** Any command in the project folder, its output collected. */
export function run(
  command: string,
  args: string[],
  timeout: number,
  env?: NodeJS.ProcessEnv,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, timeout, ...(env ? { env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Parses stdout as JSON, failing with the whole run in the message when it is not. */
export function json<T = unknown>(r: CliResult): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`expected JSON on stdout (exit ${r.status})\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
}

/** Asserts success with a useful failure message (exit status plus both streams). */
export function ok(r: CliResult): CliResult {
  if (r.status !== 0)
    throw new Error(`condense exited ${r.status}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** A temp folder for this test file, removed after it. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'condense-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let dbCount = 0;
/** A fresh database path inside `dir` (one per test, so tests never see each other's sessions). */
export function freshDb(dir: string): string {
  dbCount += 1;
  return join(dir, `t${dbCount}.db`);
}

export function writeFile(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

export interface SessionRow {
  id: string;
  entryCount: number;
  totalTokens: number;
  activeTokens: number;
}

/** `condense sessions --json` on `db`. */
export function sessions(db: string): SessionRow[] {
  return json<SessionRow[]>(ok(cli(['sessions', '--db', db, '--json'])));
}

/** Export lines as objects, with the session id (the one thing a copy changes) taken out. */
export function withoutSessionId(jsonl: string): unknown[] {
  return jsonl
    .trim()
    .split('\n')
    .map((line) => {
      const { sessionId: _s, id, type, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return type === 'session' ? { type, ...rest } : { type, id, ...rest };
    });
}

type ChatMessage = Record<string, unknown>;

/** A small OpenAI Chat Completions conversation: system, a tool call and its result, an answer. */
export function smallChat(): ChatMessage[] {
  return [
    { role: 'system', content: 'You are a careful assistant.' },
    { role: 'user', content: 'Read notes.txt and tell me what it says.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path":"notes.txt"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'Buy milk. Never deploy on Fridays.' },
    { role: 'assistant', content: 'It says: buy milk, and never deploy on Fridays.' },
  ];
}

/**
 * A coding chat with `turns` user turns, each reading one file whose output is `lines` lines long
 * (about 3.3 tokens per line): a lot of old tool output for prune and compact to work on.
 */
export function bigToolChat(turns = 10, lines = 3000): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let t = 0; t < turns; t++) {
    const path = `src/module${t}.ts`;
    out.push(
      { role: 'user', content: `Turn ${t}: review ${path} and report problems.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${t}`,
            type: 'function',
            function: { name: 'read_file', arguments: JSON.stringify({ path }) },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: `call_${t}`,
        content: `// ${path}\n${'export const x = 1;\n'.repeat(lines)}`,
      },
      { role: 'assistant', content: `Reviewed ${path}: no problems found.` },
    );
  }
  return out;
}
