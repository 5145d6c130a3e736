/** `condense report`: one HTML file, written whole, naming nothing outside itself. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, freshDb, json, ok, tempDir, writeFile } from './support.js';

const dir = tempDir();
const db = freshDb(dir);
const transcript = writeFile(dir, 'chat.json', [
  { role: 'system', content: 'You are helpful.' },
  { role: 'user', content: 'What is in the repository?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'src\ntest\nREADME.md' },
  { role: 'assistant', content: 'A src folder, tests and a README.' },
]);
ok(cli(['import', transcript, '--session', 'chat', '--db', db]));

describe('condense report', () => {
  it('writes one self-contained HTML file: no address outside it, a chart point per reply', () => {
    const out = join(dir, 'r.html');
    const r = ok(cli(['report', 'chat', '--db', db, '--out', out, '--json']));
    const html = readFileSync(out, 'utf8');
    expect(json(r)).toEqual({ file: out, bytes: Buffer.byteLength(html) });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('data-requests="2"');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain("default-src 'none'");
    // Nothing left beside it from the write.
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('--out - prints it; without --out it goes to condense-report-<session>.html here', () => {
    const printed = ok(cli(['report', 'chat', '--db', db, '--out', '-']));
    expect(printed.stdout.startsWith('<!doctype html>')).toBe(true);
    const r = ok(cli(['report', 'chat', '--db', db], 30_000, dir));
    expect(r.stdout).toMatch(/^wrote condense-report-chat\.html \(0\.\d\d MB\)/);
    expect(existsSync(join(dir, 'condense-report-chat.html'))).toBe(true);
  });

  it('an unknown session is an error naming the database, and writes nothing', () => {
    const out = join(dir, 'none.html');
    const r = cli(['report', 'nope', '--db', db, '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`no session 'nope' in ${db}`);
    expect(existsSync(out)).toBe(false);
  });
});
