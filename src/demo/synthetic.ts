import type { AssistantMessage, Message, ToolPart, UserMessage } from '../model/index.js';

/**
 * A deterministic, realistic coding-agent session: requests, file reads, edits, test runs with
 * failures, long logs. Written from scratch for demos, benchmarks and tests (no third-party data).
 */

/** Small seeded PRNG (mulberry32) so every run produces the same session. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = [
  'src/server/routes.ts',
  'src/server/auth.ts',
  'src/db/migrations/004_add_index.sql',
  'src/lib/retry.ts',
  'src/lib/cache.ts',
  'test/routes.test.ts',
  'test/auth.test.ts',
  'package.json',
  'README.md',
];

const REQUESTS = [
  'The login endpoint returns 500 when the password is empty. Find out why and fix it.',
  'Add a retry with exponential backoff to the payment client, at most 5 attempts.',
  'Never edit files under src/db/migrations directly; add a new migration instead.',
  'Run the test suite and fix whatever fails.',
  'Refactor the cache module so the TTL is configurable per key.',
  'Document the new configuration options in README.md.',
  'Why is the p95 latency of GET /orders 1.8 seconds? Profile and improve it.',
];

function codeBlock(path: string, lines: number, r: () => number): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    const n = Math.floor(r() * 1000);
    out.push(
      `${String(i).padStart(4)}  export function handler${n}(req: Request, res: Response) { return service.call('${path}', req.body?.id ?? ${n}); }`,
    );
  }
  return out.join('\n');
}

function testLog(failures: number, r: () => number): string {
  const lines = [' RUN  v4.1.0 /work/app', ''];
  for (let i = 0; i < 40; i++)
    lines.push(` ✓ test/routes.test.ts > route ${i} responds (${Math.floor(r() * 90)}ms)`);
  for (let i = 0; i < failures; i++) {
    lines.push(
      ` × test/auth.test.ts > login rejects empty password #${i}`,
      '   AssertionError: expected 500 to be 400',
    );
    lines.push(
      '    at test/auth.test.ts:42:17',
      '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
    );
  }
  lines.push('', ` Tests  ${failures} failed | 40 passed (${40 + failures})`);
  return lines.join('\n');
}

let callCounter = 0;

function tool(name: string, input: Record<string, string>, output: string, failed = false): ToolPart {
  callCounter += 1;
  const callId = `call_${callCounter.toString(36).padStart(6, '0')}`;
  return failed
    ? { type: 'tool', callId, name, input, state: 'error', error: output }
    : { type: 'tool', callId, name, input, state: 'completed', output };
}

/** The i-th of many distinct source files: folders and names spread like a large repository's. */
function manyPath(i: number): string {
  const area = ['src', 'lib', 'packages', 'test', 'scripts'][i % 5]!;
  return `${area}/mod${Math.floor(i / 25)}/part${i % 25}/file${i}.ts`;
}

interface StepShape {
  /** Distinct files the session touches (default: the nine of a small app). */
  paths: number;
  /** Lines of a file read: at least `min`, up to `min + spread`. */
  readLines: [min: number, spread: number];
}

/** One agent step: a short thought and one or two tool calls with their results. */
function step(r: () => number, shape: StepShape): AssistantMessage {
  const file =
    shape.paths > 0 ? manyPath(Math.floor(r() * shape.paths)) : FILES[Math.floor(r() * FILES.length)]!;
  const kind = r();
  const parts: AssistantMessage['parts'] = [{ type: 'text', text: `Looking at ${file} next.` }];
  const [min, spread] = shape.readLines;
  if (kind < 0.45)
    parts.push(tool('read_file', { path: file }, codeBlock(file, min + Math.floor(r() * spread), r)));
  else if (kind < 0.7) {
    const failures = r() < 0.5 ? 1 + Math.floor(r() * 3) : 0;
    parts.push(tool('bash', { command: 'npm test' }, testLog(failures, r), failures > 0 && r() < 0.3));
  } else if (kind < 0.9) {
    parts.push(
      tool('edit_file', { path: file, old: 'return 500;', new: 'return 400;' }, 'Edited 1 occurrence.'),
    );
  } else {
    parts.push(
      tool('grep', { pattern: 'handler', path: 'src' }, FILES.map((f) => `${f}:12: handler`).join('\n')),
    );
    parts.push(
      tool('read_file', { path: 'package.json' }, '{ "name": "app", "scripts": { "test": "vitest" } }'),
    );
  }
  return { role: 'assistant', parts };
}

export interface SyntheticOptions {
  seed?: number;
  /** Number of messages to produce (user + assistant). */
  messages: number;
  /** Agent steps per user turn (average). */
  stepsPerTurn?: number;
  /** Distinct file paths the agent works on (default: a small app's nine files). */
  paths?: number;
  /** Lines of each file read, [at least, up to that many more] (default [20, 120]). */
  readLines?: [number, number];
}

/** A stream of messages, produced lazily so a 100,000-message session does not sit in memory twice. */
export function* syntheticSession(opts: SyntheticOptions): Generator<Message> {
  const r = rng(opts.seed ?? 42);
  callCounter = 0;
  const steps = opts.stepsPerTurn ?? 6;
  const shape: StepShape = { paths: opts.paths ?? 0, readLines: opts.readLines ?? [20, 120] };
  let produced = 0;
  let turn = 0;
  while (produced < opts.messages) {
    const request: UserMessage = {
      role: 'user',
      parts: [{ type: 'text', text: REQUESTS[turn % REQUESTS.length]! }],
    };
    yield request;
    produced++;
    const n = 1 + Math.floor(r() * steps * 2);
    for (let i = 0; i < n && produced < opts.messages; i++, produced++) yield step(r, shape);
    if (produced < opts.messages) {
      yield {
        role: 'assistant',
        parts: [{ type: 'text', text: `Done with request ${turn + 1}: changes made and tests run.` }],
      };
      produced++;
    }
    turn++;
  }
}

export { FILES as SYNTHETIC_FILES, REQUESTS as SYNTHETIC_REQUESTS };
