import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { cliAsync, DATA_DIR, freshDb, HAS_DATA, json, NO_DATA, ok, sessions, tempDir } from './support.js';

const dir = tempDir();

interface ImportRow {
  session: string;
  messages: number;
}

/** One real transcript of each single-session format (the smallest, for speed). */
const SINGLE: { format: string; path: string; id: string; render?: boolean }[] = [
  {
    format: 'Claude Code',
    path: 'agent-sessions/claude-code/session-9eda1058.jsonl',
    id: 'claude',
    render: true,
  },
  {
    format: 'Codex',
    path: 'agent-sessions/codex/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl',
    id: 'codex',
  },
  {
    format: 'Gemini CLI',
    path: 'agent-sessions/gemini-cli/session-2026-01-16T11-01-file-ops-37b7abef.json',
    id: 'gemini',
  },
  {
    format: 'SWE-agent (function calling)',
    path: 'swe-agent/trajectories/demonstrations/function_calling_simple.traj',
    id: 'swe',
  },
];

// Each test has its own database, so they run side by side (a CLI start is mostly waiting on one core).
describe.skipIf(!HAS_DATA).concurrent('condense import of real transcripts', () => {
  if (!HAS_DATA) console.warn(NO_DATA);

  it.each(SINGLE)('imports a $format transcript', async ({ path, id, render }) => {
    const db = freshDb(dir);
    const imported = json<ImportRow[]>(
      ok(await cliAsync(['import', join(DATA_DIR, path), '--session', id, '--db', db, '--json'])),
    );
    expect(imported).toHaveLength(1);
    expect(imported[0]!.session).toBe(id);
    expect(imported[0]!.messages).toBeGreaterThan(3);
    if (!render) return;
    // What was stored renders to a request Anthropic accepts (the strictest rules). test/context
    // checks every real file in every format in-process; this checks the CLI path once.
    const context = json(ok(await cliAsync(['context', id, '--format', 'anthropic', '--db', db])));
    expect(validate(context, 'anthropic')).toEqual([]);
  });

  it('imports a tau-bench results file as one session per run', async () => {
    const db = freshDb(dir);
    const file = join(DATA_DIR, 'tau-bench/gpt-4o-airline.json');
    const runs = JSON.parse(readFileSync(file, 'utf8')) as { task_id: number; trial: number }[];
    const imported = json<ImportRow[]>(
      ok(await cliAsync(['import', file, '--session', 'tau', '--db', db, '--json'])),
    );
    expect(imported).toHaveLength(runs.length);
    expect(imported[0]!.session).toBe(`tau-task-${runs[0]!.task_id}-trial-${runs[0]!.trial}`);
    expect(new Set(imported.map((r) => r.session)).size).toBe(runs.length);
    const stored = sessions(db);
    expect(stored).toHaveLength(runs.length);
    expect(stored.every((s) => s.entryCount > 0)).toBe(true);
  });
});
