import { describe, expect, it } from 'vitest';
import {
  bigToolChat,
  cli,
  cliAsync,
  freshDb,
  json,
  ok,
  type SessionRow,
  sessions,
  smallChat,
  tempDir,
  withoutSessionId,
  writeFile,
} from './support.js';

const dir = tempDir();

interface ImportRow {
  session: string;
  messages: number;
}

describe('condense import (OpenAI Chat Completions)', () => {
  it('imports a message array into the named session; again is a no-op, another file is refused', () => {
    const db = freshDb(dir);
    const file = writeFile(dir, 'small-chat.json', smallChat());
    const first = json<ImportRow[]>(ok(cli(['import', file, '--session', 'chat', '--db', db, '--json'])));
    // user, assistant (tool call + its result as one tool part), assistant answer; the system
    // prompt goes to the session's metadata
    expect(first).toEqual([{ session: 'chat', messages: 3 }]);

    const again = ok(cli(['import', file, '--session', 'chat', '--db', db]));
    expect(again.stdout).toContain('session chat already holds this import (3 messages): unchanged');
    const other = writeFile(dir, 'other-chat.json', smallChat().slice(0, 2));
    const clash = cli(['import', other, '--session', 'chat', '--db', db]);
    expect(clash.status).not.toBe(0);
    expect(clash.stderr).toMatch(/^condense: .*other-chat\.json: session 'chat' already exists/);

    const rows = sessions(db);
    expect(rows.map((r) => [r.id, r.entryCount])).toEqual([['chat', 3]]);
    expect(rows[0]!.totalTokens).toBeGreaterThan(0);
  });
});

describe('condense export → import → export', () => {
  it('round-trips a pruned and compacted session exactly (entries, pivot, marks), modulo the session id', async () => {
    const db = freshDb(dir);
    const file = writeFile(dir, 'big-chat.json', bigToolChat(8, 3000));
    ok(cli(['import', file, '--session', 'orig', '--db', db]));
    // Give the log every kind of entry state an export must carry: pruning marks and a pivot.
    expect(json<{ parts: number }>(ok(cli(['prune', 'orig', '--db', db, '--json']))).parts).toBeGreaterThan(
      0,
    );
    ok(cli(['compact', 'orig', '--db', db, '--json']));

    const exported = ok(cli(['export', 'orig', '--db', db])).stdout;
    const lines = exported.trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'session', id: 'orig' });
    expect(lines.some((l) => l.includes('"kind":"compaction"'))).toBe(true);
    expect(lines.some((l) => l.includes('"compactedAt"'))).toBe(true);

    const jsonl = writeFile(dir, 'orig.jsonl', exported);
    const [same, copied] = await Promise.all([
      // Without --session the export's own id is used: that session holds exactly this already.
      cliAsync(['import', jsonl, '--db', db, '--json']),
      cliAsync(['import', jsonl, '--session', 'copy', '--db', db, '--json']),
    ]);
    expect(json<ImportRow[]>(ok(same))).toEqual([
      { session: 'orig', messages: lines.length - 1, unchanged: true },
    ]);
    expect(json<ImportRow[]>(ok(copied))).toEqual([{ session: 'copy', messages: lines.length - 1 }]);

    const [reExport, listed, shaped] = await Promise.all([
      cliAsync(['export', 'copy', '--db', db]),
      cliAsync(['sessions', '--db', db, '--json']),
      cliAsync(['export', 'orig', '--preset', 'opencode', '--db', db]),
    ]);
    const reExported = ok(reExport).stdout;
    expect(JSON.parse(reExported.split('\n')[0]!)).toMatchObject({ type: 'session', id: 'copy' });
    expect(withoutSessionId(reExported)).toEqual(withoutSessionId(exported));

    // The running figures were rebuilt from the log: the copy's view is the original's. (totalTokens
    // is not compared: the original counts outputs as appended, before pruning shrank their estimates.)
    const rows = json<SessionRow[]>(ok(listed));
    const orig = rows.find((r) => r.id === 'orig')!;
    const dup = rows.find((r) => r.id === 'copy')!;
    expect([dup.entryCount, dup.activeTokens]).toEqual([orig.entryCount, orig.activeTokens]);
    expect(dup.activeTokens).toBeLessThan(dup.totalTokens);

    // --preset opencode: that system's records (the summary an assistant message flagged
    // summary: true, pruned parts marked state.time.compacted), read back as the same session.
    const opencode = ok(shaped).stdout.trim().split('\n');
    expect(opencode.some((l) => l.includes('"kind":"compaction"'))).toBe(false);
    expect(opencode.some((l) => /"message":\{"role":"assistant","summary":true,/.test(l))).toBe(true);
    expect(opencode.some((l) => /"time":\{[^}]*"compacted":\d+/.test(l))).toBe(true);
    expect(opencode.some((l) => l.includes('"compactedAt"'))).toBe(false);
    const back = writeFile(dir, 'orig-opencode.jsonl', ok(shaped).stdout);
    ok(cli(['import', back, '--session', 'back', '--db', db]));
    expect(withoutSessionId(ok(cli(['export', 'back', '--db', db])).stdout)).toEqual(
      withoutSessionId(exported),
    );
  });
});
