/**
 * The SQLite search index is filled by searches, not appends: what that must keep true — every
 * stored entry is found, a deleted session's rowids handed out again are indexed, a change to an
 * indexed entry is followed, and two connections index each entry once.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';
import { tempDir } from './sqlite-helpers.js';

describe('sqlite search index', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function files() {
    const t = tempDir();
    cleanups.push(t.remove);
    const raw = () => {
      const db = new Database(t.dbPath, { readonly: true });
      cleanups.push(() => {
        db.close();
      });
      return db;
    };
    const store = (readonly = false) => {
      const s = sqliteStore({ path: t.dbPath, readonly });
      cleanups.push(() => s.close());
      return s;
    };
    return { store, raw };
  }

  async function seeded(store: ReturnType<typeof sqliteStore>, id: string, count: number) {
    const record = sessionRecord(id);
    await store.createSession(record);
    const entries = textEntries(id, count);
    await store.append(entries, commitAfter(record, entries));
  }

  const mark = (db: Database.Database) =>
    (db.prepare('SELECT indexed_through FROM search_state').get() as { indexed_through: number })
      .indexed_through;

  it('appends leave the index alone; the next search indexes everything since', async () => {
    const { store, raw } = files();
    const writer = store();
    await seeded(writer, 's1', 5);
    expect(mark(raw())).toBe(0);
    expect((await writer.search('message')).length).toBe(5);
    expect(mark(raw())).toBe(5);
  });

  it('rowids SQLite hands out again after a delete are indexed, the deleted entries never found', async () => {
    const { store } = files();
    const writer = store();
    await seeded(writer, 'old', 4);
    expect((await writer.search('message')).map((h) => h.sessionId)).toStrictEqual(Array(4).fill('old'));
    await writer.deleteSession('old');
    await seeded(writer, 'new', 3);
    expect((await writer.search('message')).map((h) => h.sessionId)).toStrictEqual(Array(3).fill('new'));
  });

  it('a read-only connection searches what a writer indexed; a second writer catches up once', async () => {
    const { store, raw } = files();
    const a = store();
    await seeded(a, 's1', 3);
    expect(await a.search('message')).toHaveLength(3);
    await seeded(a, 's2', 2);
    const reader = store(true);
    expect((await reader.search('message')).map((h) => h.sessionId).sort()).toStrictEqual(['s1', 's1', 's1']);
    const b = store();
    expect(await b.search('message')).toHaveLength(5);
    expect(await a.search('message')).toHaveLength(5);
    // Each entry once in the index: a row count of matches per rowid.
    const counts = raw()
      .prepare(
        "SELECT rowid, COUNT(*) AS n FROM entries_fts WHERE entries_fts MATCH 'message' GROUP BY rowid",
      )
      .all() as { n: number }[];
    expect(counts.map((c) => c.n)).toStrictEqual([1, 1, 1, 1, 1]);
  });
});
