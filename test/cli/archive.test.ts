/** `condense archive read` and the seed-003 preset's JSONL store, through the real CLI. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRange } from '../../src/cli/cmd-archive.js';
import { cli, json, ok } from './support.js';

const cwd = mkdtempSync(join(tmpdir(), 'condense-cli-archive-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const messages = Array.from({ length: 12 }, (_, i) => [
  { role: 'user', content: `Task ${i}: ${'please do the thing '.repeat(60)}` },
  { role: 'assistant', content: `Done ${i}. The value was v${i}.` },
]).flat();
writeFileSync(join(cwd, 'chat.json'), JSON.stringify({ messages }));
const run = (...args: string[]) => cli(args, 30_000, cwd);

describe('condense archive read', () => {
  it('with the seed-003 preset, sessions go to a JSONL folder and the latest archive reads back by range', () => {
    ok(run('import', 'chat.json', '--preset', 'seed-003'));
    const folder = join(cwd, '.condense', 'sessions', 'chat');
    expect(readdirSync(folder).sort()).toEqual(['archives.json', 'current.jsonl', 'session.json']);
    expect(readdirSync(join(cwd, '.condense'))).toEqual(['sessions']);
    expect(ok(run('archive', 'read', 'chat', '--preset', 'seed-003')).stdout).toMatch(/^No archived session/);

    ok(run('compact', 'chat', '--preset', 'seed-003'));
    const [archive] = readdirSync(folder).filter((f) => /^\d{8}T\d{6}\.jsonl$/.test(f));
    expect(archive).toBeDefined();
    const read = json<{
      archive: string;
      compactionId: string;
      count: number;
      entries: { seq: number; text: string }[];
    }>(ok(run('archive', 'read', 'chat', '--preset', 'seed-003', '--range', '2..3', '--json')));
    expect(read).toMatchObject({ archive, count: 24 });
    expect(read.entries.map((e) => [e.seq, e.text])).toEqual([
      [2, expect.stringMatching(/^User: Task 1: please/)],
      [3, 'Assistant: Done 1. The value was v1.'],
    ]);
    // The folder is found without the preset too: it already holds a JSONL session.
    const human = ok(
      run('archive', 'read', 'chat', '--db', join(cwd, '.condense', 'sessions'), '--range', '23'),
    );
    expect(human.stdout).toBe(
      `${archive}: summarized by compaction ${read.compactionId}, 24 entries (seqs 0..23)\n\n[23] Assistant: Done 11. The value was v11.\n`,
    );
    const refused = run('archive', 'read', 'chat', '--preset', 'seed-003', '--range', '40..50');
    expect(refused.status).toBe(2);
    // After the one warning that the session names no model (its window is assumed).
    expect(refused.stderr).toMatch(
      /^condense: warning: no model was given[^\n]*\ncondense: no entries in 40\.\.50: the most recent archive holds seqs 0\.\.23\n$/,
    );
  }, 60_000);

  it('reads ranges as A..B, A.., ..B or A', () => {
    expect(parseRange('3..7')).toEqual({ from: 3, to: 7 });
    expect(parseRange('3..')).toEqual({ from: 3 });
    expect(parseRange('..7')).toEqual({ to: 7 });
    expect(parseRange('5')).toEqual({ from: 5, to: 5 });
    for (const bad of ['', '..', 'a..b', '-1..2', '1...2'])
      expect(() => parseRange(bad)).toThrow(/--range must be/);
  });
});
