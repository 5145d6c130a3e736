import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cliAsync, DATA_DIR, freshDb, HAS_DATA, ok, ROOT, tempDir, writeFile } from './support.js';

/**
 * Issue 10, item 2: killing `condense import` of a file of many runs must leave either none of its
 * sessions or all of them, and running the import again must then succeed. The import runs as a
 * real child process, killed by SIGTERM or SIGKILL at random times, some of them chosen while the
 * write transaction is under way (the database's write-ahead log is growing).
 */

const dir = tempDir();
const REAL = join(DATA_DIR, 'tau-bench', 'gpt-4o-airline.json');
const RUNS = 200;

/** tau-bench's shape (task_id, trial, reward, info, traj as OpenAI Chat), for when the real file is absent. */
function tauRuns(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    task_id: i % 50,
    trial: Math.floor(i / 50),
    reward: i % 3 === 0 ? 1 : 0,
    info: { task: { user_id: `user_${i}`, instruction: `Cancel reservation R${i}.` } },
    traj: [
      { role: 'system', content: `# Airline Agent Policy\n${'Follow the policy. '.repeat(200)}` },
      { role: 'user', content: `Hi, I want to cancel reservation R${i}.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${i}`,
            type: 'function',
            function: {
              name: 'get_reservation_details',
              arguments: JSON.stringify({ reservation_id: `R${i}` }),
            },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: `call_${i}`,
        name: 'get_reservation_details',
        content: JSON.stringify({ reservation_id: `R${i}`, flights: Array(40).fill({ flight: 'HAT136' }) }),
      },
      { role: 'assistant', content: `Reservation R${i} can be cancelled. Shall I proceed?` },
      { role: 'user', content: 'Yes.' },
      { role: 'assistant', content: 'Done: it is cancelled.' },
    ],
  }));
}

const CLI = ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];

/** Sessions in the database and the entries of each (what a killed import left). */
function stored(db: string): Map<string, number> {
  if (!existsSync(db)) return new Map();
  const raw = new Database(db);
  try {
    const rows = raw
      .prepare(
        'SELECT s.id AS id, (SELECT count(*) FROM entries e WHERE e.session_id = s.id) AS n FROM sessions s',
      )
      .all() as { id: string; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  } catch (error) {
    // Killed before the schema was created: nothing stored.
    if (/no such table/.test(String(error))) return new Map();
    throw error;
  } finally {
    raw.close();
  }
}

function walSize(db: string): number {
  try {
    return statSync(`${db}-wal`).size;
  } catch {
    return 0;
  }
}

interface Kill {
  signal: 'SIGTERM' | 'SIGKILL';
  /** Milliseconds after the start, or after the write-ahead log began to grow past the schema. */
  afterMs: number;
  duringWrite: boolean;
}

/** Starts the import and kills it as planned; resolves with whether the write had begun by then. */
function importKilled(
  file: string,
  db: string,
  kill: Kill,
): Promise<{ writing: boolean; exited: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, 'import', file, '--db', db], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    let writing = false;
    let timer: NodeJS.Timeout | undefined;
    const fire = () => child.kill(kill.signal);
    // The schema alone puts ~30 kB in the log; the sessions' rows put megabytes.
    const poll = setInterval(() => {
      if (writing || walSize(db) < 100_000) return;
      writing = true;
      if (kill.duringWrite) timer = setTimeout(fire, kill.afterMs);
    }, 1);
    if (!kill.duringWrite) timer = setTimeout(fire, kill.afterMs);
    child.on('error', reject);
    child.on('close', (exited) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ writing, exited });
    });
  });
}

describe('condense import killed midway', () => {
  it(`leaves none or all of ${RUNS} sessions, and a re-run succeeds`, async () => {
    const file = HAS_DATA && existsSync(REAL) ? REAL : writeFile(dir, 'tau-runs.json', tauRuns(RUNS));
    // A clean import: what "all" means, and how long a whole run takes here.
    const cleanDb = freshDb(dir);
    const started = Date.now();
    ok(await cliAsync(['import', file, '--db', cleanDb], 60_000));
    const fullMs = Date.now() - started;
    const all = stored(cleanDb);
    expect(all.size).toBe(RUNS);
    expect([...all.values()].every((n) => n > 0)).toBe(true);

    const kills: Kill[] = (['SIGTERM', 'SIGKILL'] as const).flatMap((signal) => [
      { signal, afterMs: Math.random() * fullMs, duringWrite: false },
      { signal, afterMs: Math.random() * 8, duringWrite: true },
      { signal, afterMs: Math.random() * 8, duringWrite: true },
    ]);
    const outcomes: string[] = [];
    for (const kill of kills) {
      const db = freshDb(dir);
      const { writing, exited } = await importKilled(file, db, kill);
      const left = stored(db);
      const what = left.size === 0 ? 'none' : left.size === RUNS ? 'all' : `${left.size} of ${RUNS}`;
      outcomes.push(
        `${kill.signal} at ${kill.afterMs.toFixed(1)} ms${kill.duringWrite ? ' into the write' : ''}: exit ${exited}, ${what}${writing ? ' (write had begun)' : ''}`,
      );
      expect(what, outcomes.at(-1)).toMatch(/^(none|all)$/);
      if (what === 'all') expect(left).toStrictEqual(all);
      // Whatever the kill left, the same import then completes.
      ok(await cliAsync(['import', file, '--db', db], 60_000));
      expect(stored(db)).toStrictEqual(all);
    }
    console.log(`clean import ${fullMs} ms\n${outcomes.join('\n')}`);
    // At least one kill landed inside the write transaction and was rolled back whole.
    expect(outcomes.some((o) => o.includes('(write had begun)') && o.includes(', none'))).toBe(true);
  }, 240_000);
});
