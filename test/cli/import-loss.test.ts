import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliAsync, freshDb, json, ok, sessions, tempDir, writeFile } from './support.js';

/** Issue 10, item 5 through the CLI: reported on stderr with file, line and count; --strict refuses. */

const dir = tempDir();

const chat = [
  { role: 'user', content: 'read a.txt and b.txt' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_A', content: 'contents of a.txt' },
  { role: 'tool', tool_call_id: 'call_B', content: 'contents of b.txt' },
  { role: 'assistant', content: 'Done.' },
];

/** Lines where the tool messages open in the file written (the `{` just above each role). */
const TOOL_LINES = JSON.stringify(chat, null, 2)
  .split('\n')
  .flatMap((l, i) => (l.includes('"role": "tool"') ? [i] : []));

/** A chat whose second message holds two bytes that are not UTF-8 (a Latin-1 "é" and 0xFF). */
function latin1File(name: string): string {
  const path = join(dir, name);
  const text = '[{"role":"user","content":"hi"},\n{"role":"assistant","content":"caf\u00e9 \u00ff"}]\n';
  writeFileSync(path, Buffer.from(text, 'latin1'));
  return path;
}

describe('condense import reports what it keeps in another form', () => {
  it('orphan results and bad bytes: imported, and named on stderr with file, line and count', async () => {
    const orphans = writeFile(dir, 'orphans.json', chat);
    const latin1 = latin1File('latin1.json');
    const db = freshDb(dir);
    const [a, b] = await Promise.all([
      cliAsync(['import', orphans, '--db', db, '--json']),
      cliAsync(['import', latin1, '--db', freshDb(dir), '--json']),
    ]);
    expect(json(ok(a))).toEqual([{ session: 'orphans', messages: 5 }]);
    expect(a.stderr).toBe(
      `condense: warning: ${orphans}: 2 tool results answering no tool call kept as user messages marked orphanResult (lines ${TOOL_LINES.join(', ')})\n`,
    );
    expect(json(ok(b))).toEqual([{ session: 'latin1', messages: 2 }]);
    expect(b.stderr).toBe(
      `condense: warning: ${latin1}: 2 byte sequences that are not UTF-8 read as U+FFFD (line 2)\n`,
    );
  });

  it('--strict refuses each, naming file, line and field, and writes nothing', async () => {
    const orphans = writeFile(dir, 'strict-orphans.json', chat);
    const latin1 = latin1File('strict-latin1.json');
    const db = freshDb(dir);
    const [a, b] = await Promise.all([
      cliAsync(['import', orphans, '--db', db, '--strict']),
      cliAsync(['import', latin1, '--db', db, '--strict']),
    ]);
    expect(a.status).toBe(2);
    expect(a.stderr).toBe(
      `condense: ${orphans}:line ${TOOL_LINES[0]}, field [2]: result for tool call call_A, which no call made: refused by --strict (2 tool results answering no tool call in the file)\n`,
    );
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(
      /strict-latin1\.json:line 2: 2 byte sequences that are not UTF-8: refused by --strict/,
    );
    expect(existsSync(db) ? sessions(db) : []).toEqual([]);
  });

  it('refuses an empty or control-character session id, from --session, the file name or an export', async () => {
    const small = writeFile(dir, 'small.json', chat.slice(0, 1));
    const named = writeFile(dir, 'bell\u0007.json', chat.slice(0, 1));
    const header = { type: 'session', id: 'tab\there', createdAt: 1, metadata: {} };
    const exported = writeFile(dir, 'export.jsonl', `${JSON.stringify(header)}\n`);
    const db = freshDb(dir);
    const runs = await Promise.all([
      cliAsync(['import', small, '--db', db, '--session', '']),
      cliAsync(['import', small, '--db', db, '--session', 'a\u001bb']),
      cliAsync(['import', named, '--db', db]),
      cliAsync(['import', exported, '--db', db]),
    ]);
    expect(runs.map((r) => r.status)).toEqual([2, 2, 2, 2]);
    expect(runs[0]!.stderr).toBe('condense: --session "" is empty\n');
    expect(runs[1]!.stderr).toBe('condense: --session "a\\u001bb" holds the control character U+001B\n');
    expect(runs[2]!.stderr).toContain(
      'session id "bell\\u0007" holds the control character U+0007 (choose one with --session)',
    );
    expect(runs[3]!.stderr).toContain('session id "tab\\there" holds the control character U+0009');
    expect(existsSync(db) ? sessions(db) : []).toEqual([]);
  });

  it('masks a credential in a warning (here, a key-shaped file name)', async () => {
    const key = 'sk-proj-AAAAbbbbCCCCdddd1234';
    const file = writeFile(dir, `${key}.json`, chat);
    const r = ok(await cliAsync(['import', file, '--db', freshDb(dir), '--session', 'k']));
    expect(r.stderr).toContain('condense: warning: ');
    expect(r.stderr).toContain('***.json');
    expect(r.stderr).not.toContain(key);
  });
});
