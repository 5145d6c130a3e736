/**
 * One process writes a JSONL session at a time. Two writers used to cut each other's unpublished
 * lines and sweep each other's files (the session could no longer be opened); now the second is
 * refused at its first write, naming the holder's pid, and the session stays readable. A lock left
 * by a process that died is taken over.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../../src/index.js';
import { SessionLockedError } from '../../src/store/errors.js';
import { jsonlStore } from '../../src/store/jsonl.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = createRequire(join(ROOT, 'x.js')).resolve('tsx');
const temp = mkdtempSync(join(tmpdir(), 'condense-jsonl-lock-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Starts the writer child on `dir`; resolves once it printed `ready`. */
function writer(dir: string): Promise<{ child: ChildProcess; said: (line: string) => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', TSX, join(ROOT, 'test/store/jsonl-lock-child.ts'), dir],
    {
      cwd: ROOT,
    },
  );
  let out = '';
  const waiters: { line: string; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    out += s;
    for (const w of waiters) if (out.split('\n').includes(w.line)) w.resolve();
  });
  const said = (line: string) =>
    new Promise<void>((resolve, reject) => {
      if (out.split('\n').includes(line)) return resolve();
      waiters.push({ line, resolve });
      child.on('close', () => reject(new Error(`writer ended before '${line}': ${out}`)));
    });
  return said('ready').then(() => ({ child, said }));
}

const texts = (entries: { kind: string; message?: { parts: { type: string; text?: string }[] } }[]) =>
  entries.flatMap((e) => (e.kind === 'message' ? e.message!.parts.map((p) => p.text ?? p.type) : []));

describe('JSONL store: one writer per session', () => {
  it('a second writing process is refused with the holder pid; the session stays readable', async () => {
    const dir = join(temp, 'second');
    const { child, said } = await writer(dir);
    const store = jsonlStore({ dir, fsync: false });
    try {
      // Opening reads only: a reader (the CLI) never needs the lock.
      const session = await openSession(store, 's');
      const refused = await session.append({ role: 'user', content: 'second 0' }).catch((e) => e);
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect(refused).toMatchObject({ sessionId: 's', holderPid: child.pid });
      expect(refused.message).toContain(`process ${child.pid}`);
      expect(refused.message).toContain(join(dir, 's', 'writer.lock'));
      // Nothing of the first writer's is lost, nothing of the second's was written.
      expect(texts(await store.loadFrom('s', 0))).toEqual([0, 1, 2, 3, 4].map((i) => `first ${i}`));

      // Once the first writer closed its store, the second may write.
      child.stdin!.write('stop\n');
      await said('done');
      await session.append({ role: 'user', content: 'second 0' });
      expect(texts(await store.loadFrom('s', 0)).slice(-2)).toEqual(['first after', 'second 0']);
      expect(JSON.parse(readFileSync(join(dir, 's', 'writer.lock'), 'utf8')).pid).toBe(process.pid);
    } finally {
      child.kill('SIGKILL');
      await store.close();
    }
  }, 30_000);

  it("a killed writer's lock is stale: the next writer takes it over, nothing lost", async () => {
    const dir = join(temp, 'stale');
    const { child } = await writer(dir);
    const gone = new Promise((resolve) => child.on('close', resolve));
    child.kill('SIGKILL');
    await gone;
    const store = jsonlStore({ dir, fsync: false });
    try {
      const session = await openSession(store, 's');
      await session.append({ role: 'user', content: 'next 0' });
      expect(texts(await store.loadFrom('s', 0))).toEqual([
        ...[0, 1, 2, 3, 4].map((i) => `first ${i}`),
        'next 0',
      ]);
      expect(JSON.parse(readFileSync(join(dir, 's', 'writer.lock'), 'utf8')).pid).toBe(process.pid);
    } finally {
      await store.close();
    }
    // Closing the store gives the lock back.
    expect(() => readFileSync(join(dir, 's', 'writer.lock'))).toThrow(/ENOENT/);
  }, 30_000);

  it('a lock held on another host is respected (its process cannot be asked)', async () => {
    const dir = join(temp, 'host');
    const first = jsonlStore({ dir, fsync: false });
    await (await openSession(first, 's')).append({ role: 'user', content: 'one' });
    await first.close();
    writeFileSync(join(dir, 's', 'writer.lock'), JSON.stringify({ pid: 1, host: 'elsewhere', since: 0 }));
    const store = jsonlStore({ dir, fsync: false });
    const session = await openSession(store, 's');
    const refused = await session.append({ role: 'user', content: 'two' }).catch((e) => e);
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect(refused.message).toMatch(/process 1 on elsewhere/);
    await store.close();
  });
});
