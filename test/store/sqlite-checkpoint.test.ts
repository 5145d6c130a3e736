import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMessageEntry } from '../../src/model/build.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { commitAfter, estimator, sessionRecord } from './fixtures.js';
import { tempDir } from './sqlite-helpers.js';

/** One ~100 KB message per append: 64 appends write ~1,600 WAL pages, past SQLite's usual 1,000. */
function bigEntry(seq: number) {
  const text = `output ${seq}\n${'x'.repeat(100_000)}`;
  return buildMessageEntry(
    { role: 'user', parts: [{ type: 'text', text }] },
    { sessionId: 's', seq, parentId: seq === 0 ? null : `e${seq - 1}`, id: `e${seq}`, createdAt: 1 },
    estimator,
  );
}

describe('sqlite WAL checkpoint', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('runs when the event loop idles after the writes, never inside a turn below the cap', async () => {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    cleanups.push(t.remove, () => store.close());
    let record = sessionRecord('s');
    await store.createSession(record);
    const size = () => statSync(t.dbPath).size;
    const before = size();
    // No macrotask between the appends: as a loop that never awaits I/O.
    for (let seq = 0; seq < 64; seq++) {
      const entries = [bigEntry(seq)];
      record = await store.append(entries, commitAfter(record, entries));
    }
    expect(size()).toBe(before);
    expect(statSync(`${t.dbPath}-wal`).size).toBeGreaterThan(6_000_000);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(size()).toBeGreaterThan(before + 6_000_000);
    expect((await store.loadFrom('s', 0)).length).toBe(64);
  });

  it('a store closed before the idle moment does not checkpoint or throw', async () => {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    cleanups.push(t.remove);
    let record = sessionRecord('s');
    await store.createSession(record);
    for (let seq = 0; seq < 64; seq++) {
      const entries = [bigEntry(seq)];
      record = await store.append(entries, commitAfter(record, entries));
    }
    await store.close();
    await new Promise((resolve) => setImmediate(resolve));
    const reopened = sqliteStore({ path: t.dbPath });
    expect((await reopened.loadFrom('s', 0)).length).toBe(64);
    await reopened.close();
  });
});
