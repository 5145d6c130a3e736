import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import {
  bigToolChat,
  cli,
  cliAsync,
  freshDb,
  json,
  ok,
  type SessionRow,
  sessions,
  tempDir,
  writeFile,
} from './support.js';

const dir = tempDir();

interface CompactReport {
  pivotId: string;
  tokensBefore: number;
  tokensAfter: number;
  summary: string;
  summarizer: string;
}

describe('condense compact', () => {
  const db = freshDb(dir);
  let before: SessionRow;
  let afterCompaction: { role: string }[] = [];

  beforeAll(() => {
    ok(cli(['import', writeFile(dir, 'big.json', bigToolChat(10, 3000)), '--session', 'big', '--db', db]));
    before = sessions(db)[0]!;
  });

  it('compacts with the extractive summarizer and the view shrinks; a second compaction with options stacks on it', () => {
    const first = json<CompactReport>(ok(cli(['compact', 'big', '--db', db, '--json'])));
    expect(first).toMatchObject({ summarizer: 'extractive' });
    // The view's tokens plus the system prompt, which the import keeps in the session's metadata.
    expect(first.tokensBefore).toBeGreaterThan(before.activeTokens);
    expect(first.pivotId).toMatch(/\S/);
    expect(first.tokensAfter).toBeLessThan(first.tokensBefore);
    expect(first.summary).toContain('src/module0.ts'); // a file read early on is named in the summary

    // (Under the nexus preset this would compact nothing: every turn left fits its kept budget.)
    // Every option at once; the instructions reach the summary, the budget flags are accepted.
    const second = ok(
      cli([
        'compact',
        'big',
        '--db',
        db,
        '--context-window',
        '64000',
        '--keep-tokens',
        '4000',
        '--summary-tokens',
        '1500',
        '--instructions',
        'Focus on module9',
        '--preset',
        'opencode',
      ]),
    );
    expect(second.stdout).toMatch(/^compacted: \d+ → \d+ tokens \(pivot \S+, extractive, \d+ ms\)\n\n/);
    expect(second.stdout).toContain('Focus on module9');
    const [, from, to] = /^compacted: (\d+) → (\d+)/.exec(second.stdout)!;
    expect(Number(to)).toBeLessThan(Number(from));
    expect(Number(from)).toBe(first.tokensAfter); // it starts from where the first one left the view
  });

  it('after compaction the context holds the summary and passes validate', () => {
    const run = ok(cli(['context', 'big', '--format', 'openai', '--db', db]));
    afterCompaction = json<{ role: string }[]>(run);
    expect(validate(afterCompaction, 'openai')).toEqual([]);
    expect(run.stdout).toContain('<conversation-summary>');
    expect(run.stdout).toContain('Focus on module9'); // the latest pivot's summary is the one sent
  });

  it('the imported system prompt is still sent after compaction', () => {
    // The import keeps the chat's system prompt in the session's metadata, not in the log, so no
    // summary can swallow it (issue 3: "the system prompt is kept").
    expect(afterCompaction[0]!.role).toBe('system');
  });
});

describe('condense compact failures write nothing', () => {
  const db = freshDb(dir);

  beforeAll(() => {
    ok(cli(['import', writeFile(dir, 'big2.json', bigToolChat(6, 3000)), '--session', 'big', '--db', db]));
  });

  it('an LLM summarizer with no server behind it fails clearly and leaves no pivot', async () => {
    // --max-retries 0: the AI SDK's default two retries would only add ~6 s of backoff here.
    const args = [
      '--summarizer',
      'openai:some-model',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--max-retries',
      '0',
    ];
    const [down, badSpec, badPreset, badNumber, urlAlone] = await Promise.all([
      cliAsync(['compact', 'big', ...args, '--db', db]),
      cliAsync(['compact', 'big', '--summarizer', 'gpt-4o', '--db', db]),
      cliAsync(['compact', 'big', '--preset', 'seed-999', '--db', db]),
      cliAsync(['compact', 'big', '--keep-tokens', 'lots', '--db', db]),
      cliAsync(['compact', 'big', '--base-url', 'http://127.0.0.1:9/v1', '--db', db]),
    ]);
    expect(down.status).toBe(2);
    expect(down.stdout).toBe('');
    // After the one warning that the session names no model (its window is assumed).
    expect(down.stderr).toMatch(
      /^condense: warning: no model was given[^\n]*\ncondense: summarizer openai:some-model at http:\/\/127\.0\.0\.1:9\/v1 failed, nothing was written: .*(connect|ECONNREFUSED|fetch)/i,
    );
    expect(badSpec.stderr).toBe(
      "condense: --summarizer takes 'extractive' or PROVIDER:MODEL (e.g. openai:gpt-4o-mini, ollama:llama3.1), got 'gpt-4o'\n",
    );
    expect(badPreset.stderr).toBe(
      "condense: --preset must be one of default, seed-000, seed-001, seed-002, seed-003, seed-004, qwery, opencode, nexus, pegasus, mistral-vibe, got 'seed-999'\n",
    );
    expect(badNumber.stderr).toBe(
      "condense: --keep-tokens must be a non-negative whole number, got 'lots'\n",
    );
    expect(urlAlone.stderr).toBe('condense: --base-url needs --summarizer PROVIDER:MODEL\n');
    for (const r of [badSpec, badPreset, badNumber, urlAlone]) expect(r.status).toBe(2);
    // Just what the import wrote: 6 × (user, tool step, answer), no pivot (the system prompt is metadata).
    expect(sessions(db).map((r) => [r.id, r.entryCount])).toEqual([['big', 18]]);
  });
});
