import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { type CliResult, cliAsync, freshDb, json, ok, run, tempDir } from './support.js';

const dir = tempDir();

/** `npm run demo` as a user types it (only the database moved to a temp file). */
function npmDemo(db: string): Promise<CliResult> {
  return run('npm', ['run', '--silent', 'demo', '--', '--db', db], 60_000);
}

/** The figures of every `  compaction: A → B tokens` line. */
function compactions(text: string): [number, number][] {
  return [...text.matchAll(/^ {2}compaction: ([\d.]+) → ([\d.]+) tokens/gm)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
}

function expectStory(text: string): void {
  expect(text).toMatch(/^turn 1: /m);
  expect(text).toMatch(/^ {2}prune: cleared [1-9]\d* old tool outputs \([1-9]\d* tokens\)$/m);
  const figures = compactions(text);
  expect(figures.length).toBeGreaterThan(0);
  for (const [before, after] of figures) expect(after).toBeLessThan(before);
  // Then the stats and the context the agent would send next.
  const [, tail] = text.split(/\ncontext sent next \(/);
  expect(tail, 'the context preview').toBeDefined();
  expect(tail).toMatch(/^\d+ messages\):\n {2}system {4}You are a careful coding agent/);
  expect(tail).toMatch(/\n {2}user {6}<conversation-summary>/);
  expect(text).toMatch(/\nentries \d+ \(\d+ in view\) {2}compactions [1-9]/);
}

describe('condense demo', () => {
  const jsonDb = freshDb(dir);

  it('a short run shows pruning, compaction and the context after; --json gives a valid context; a bad --window is refused', async () => {
    const args = ['demo', '--messages', '80', '--window', '20000'];
    const [human, machine, badWindow] = await Promise.all([
      cliAsync([...args, '--db', freshDb(dir)]),
      cliAsync([...args, '--db', jsonDb, '--json']),
      cliAsync(['demo', '--window', 'big', '--db', freshDb(dir)]),
    ]);
    expect(badWindow.status).toBe(2);
    expect(badWindow.stderr).toBe("condense: --window must be a non-negative whole number, got 'big'\n");
    expectStory(ok(human).stdout);
    const result = json<{ context: unknown; log: string[]; stats: { compactions: number } }>(ok(machine));
    expect(validate(result.context, 'openai')).toEqual([]);
    expect(result.stats.compactions).toBe(compactions(human.stdout).length);
    expect(result.log.some((l) => l.startsWith('  prune: '))).toBe(true);
  });

  it('the demo session exports and re-imports', async () => {
    // A session that went through pruning, compaction and calibration round-trips through its
    // own export format (every figure in it is a whole number the entry schema accepts).
    const db = freshDb(dir);
    ok(await cliAsync(['demo', '--messages', '120', '--window', '16000', '--db', db]));
    const exported = ok(await cliAsync(['export', 'demo', '--db', db])).stdout;
    const file = join(dir, 'demo.jsonl');
    writeFileSync(file, exported);
    ok(await cliAsync(['import', file, '--session', 'demo-copy', '--db', db]));
  });

  it('npm run demo (the README command) runs with its defaults', async () => {
    const run = await npmDemo(freshDb(dir));
    expect(run.status, run.stderr).toBe(0);
    expectStory(run.stdout);
  });
});
