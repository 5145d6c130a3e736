import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CorruptRowError } from '../../src/store/errors.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { type PartsStatements, rewriteParts, UPDATE_PARTS_SQL } from '../../src/store/sqlite-parts.js';
import { SQL } from '../../src/store/sqlite-statements.js';
import type { Store } from '../../src/store/store.js';
import { describeStoreConformance } from './conformance.js';
import { commitAfter, pivotEntry, richEntries, sessionRecord, textEntries } from './fixtures.js';
import { describeLedgerConformance } from './ledger-conformance.js';
import { tempDir } from './sqlite-helpers.js';

const dirs = new Map<Store, () => void>();
describeStoreConformance(
  'sqlite',
  () => {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    dirs.set(store, t.remove);
    return store;
  },
  (store) => dirs.get(store)?.(),
);

const ledgerDirs = new Map<Store, () => void>();
describeLedgerConformance(
  'sqlite',
  () => {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    ledgerDirs.set(store, t.remove);
    return store;
  },
  (store) => ledgerDirs.get(store)?.(),
);

describe('sqlite store', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A store on a fresh temp file plus a raw connection to inspect it. */
  function open(): { store: Store; raw: Database.Database; path: string } {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    const raw = new Database(t.dbPath);
    cleanups.push(
      t.remove,
      () => store.close(),
      () => {
        raw.close();
      },
    );
    return { store, raw, path: t.dbPath };
  }

  it('keeps sessions and entries across close and reopen', async () => {
    const { store, path } = open();
    const record = sessionRecord('s1');
    await store.createSession(record);
    const entries = richEntries('s1');
    const after = await store.append(entries, commitAfter(record, entries));
    await store.close();
    const reopened = sqliteStore({ path });
    cleanups.push(() => reopened.close());
    expect(await reopened.getSession('s1')).toStrictEqual(after);
    expect(await reopened.loadFrom('s1', 0)).toStrictEqual(entries);
  });

  it('leaves the file in WAL mode', async () => {
    const { raw } = open();
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('loadFrom and getEntry search the key indexes instead of scanning entries', () => {
    const { raw } = open();
    const plan = (sql: string, ...params: unknown[]) =>
      (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    const load = plan(SQL.loadFrom, 's1', 10);
    expect(load.join('\n')).toMatch(
      /SEARCH entries USING INDEX sqlite_autoindex_entries_1 \(session_id=\? AND seq>\?\)/,
    );
    expect(load.join('\n')).not.toMatch(/SCAN|TEMP B-TREE/);
    expect(plan(SQL.getEntry, 's1', 'e1').join('\n')).toMatch(
      /SEARCH entries USING INDEX sqlite_autoindex_entries_2/,
    );
    const latestPivot =
      "SELECT id FROM entries WHERE session_id = ? AND kind = 'compaction' ORDER BY seq DESC LIMIT 1";
    expect(plan(latestPivot, 's1').join('\n')).toMatch(/USING (COVERING )?INDEX entries_compactions/);
  });

  it('a prune finds each entry through its (session_id, id) key, never by scanning', () => {
    const { raw } = open();
    const plan = (
      raw.prepare(`EXPLAIN QUERY PLAN ${UPDATE_PARTS_SQL}`).all('[]', '[]', 0, 's1', 'e0') as {
        detail: string;
      }[]
    )
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/SEARCH entries USING INDEX sqlite_autoindex_entries_2 \(session_id=\? AND id=\?\)/);
    expect(plan).not.toMatch(/SCAN entries|SEARCH entries USING INDEX sqlite_autoindex_entries_1/);
  });

  it("stores a pivot's seed 002 fields as columns that SQL can query", async () => {
    const { store, raw } = open();
    const record = sessionRecord('s1');
    await store.createSession(record);
    const entries = [...textEntries('s1', 3), pivotEntry('s1', 3, 'p1', 's1-e2', 's1-e1')];
    await store.append(entries, commitAfter(record, entries));
    const rows = raw.prepare("SELECT * FROM entries WHERE session_id = 's1' AND kind = 'compaction'").all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: 'p1',
      turn_type: 'compaction',
      summarized_through_id: 's1-e1',
      first_kept_id: 's1-e2',
      tokens_before: 180_000,
      tokens_after: 12_345,
      previous_pivot_id: null,
      summarizer: 'llm',
      model: 'anthropic/claude-x',
      auto: 1,
      role: null,
    });
    const normal = raw.prepare("SELECT role, turn_type, summary FROM entries WHERE id = 's1-e1'").get();
    expect(normal).toStrictEqual({ role: 'assistant', turn_type: 'normal', summary: null });
  });

  it('names table, session and seq when a stored JSON column does not parse', async () => {
    const { store, raw } = open();
    const record = sessionRecord('s1');
    await store.createSession(record);
    const entries = textEntries('s1', 3);
    await store.append(entries, commitAfter(record, entries));
    raw.prepare("UPDATE entries SET body = '{broken' WHERE session_id = 's1' AND seq = 1").run();
    const error = await store.loadFrom('s1', 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptRowError);
    expect(String(error)).toMatch(/entries row \(session s1, seq 1\): column body/);
    expect(await store.loadFrom('s1', 2)).toStrictEqual(entries.slice(2));
    raw.prepare("UPDATE sessions SET state = 'nope' WHERE id = 's1'").run();
    await expect(store.getSession('s1')).rejects.toThrow(/sessions row \(session s1\): column state/);
  });

  it('names session and seq when pruning meets a stored body that is not JSON, and writes nothing', async () => {
    const { store, raw } = open();
    const record = sessionRecord('s1');
    await store.createSession(record);
    const entries = textEntries('s1', 3);
    const r1 = await store.append(entries, commitAfter(record, entries));
    raw.prepare("UPDATE entries SET body = '{broken' WHERE session_id = 's1' AND seq = 2").run();
    const update = (id: string) => ({
      entryId: id,
      parts: [{ type: 'text' as const, text: 'x' }],
      partTokens: [1],
      tokens: 5,
    });
    const error = await store
      .updateParts([update('s1-e0'), update('s1-e2')], commitAfter(r1))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptRowError);
    expect(String(error)).toMatch(/entries row \(session s1, seq 2\): column body/);
    expect(await store.getEntry('s1', 's1-e0')).toStrictEqual(entries[0]);
    expect(await store.getSession('s1')).toStrictEqual(r1);
  });

  it('prunes with one prepared UPDATE per entry, the latest update of an entry winning', () => {
    const calls: { id: string; parts: string }[] = [];
    const st = {
      update: {
        get: (parts: string, _partTokens: string, _tokens: number, _session: string, id: string) => {
          calls.push({ id, parts });
          return { rowid: calls.length };
        },
      },
      kind: { get: () => undefined },
      invalidBody: { get: () => undefined },
      searchWatermark: { get: () => ({ indexed_through: 0 }) },
    } as unknown as PartsStatements;
    const update = (id: string, text: string) => ({
      entryId: id,
      parts: [{ type: 'text' as const, text }],
      partTokens: [1],
      tokens: 1,
    });
    rewriteParts(st, { changed: () => undefined }, 's1', [
      update('e0', 'a'),
      update('e1', 'b'),
      update('e0', 'c'),
    ]);
    expect(calls).toEqual([
      { id: 'e0', parts: JSON.stringify([{ type: 'text', text: 'c' }]) },
      { id: 'e1', parts: JSON.stringify([{ type: 'text', text: 'b' }]) },
    ]);
  });

  it('creates the default .condense folder under the working directory', async () => {
    const t = tempDir();
    const cwd = process.cwd();
    process.chdir(t.dir);
    try {
      const store = sqliteStore();
      await store.createSession(sessionRecord('s1'));
      await store.close();
      const raw = new Database(`${t.dir}/.condense/condense.db`, { fileMustExist: true });
      expect(raw.prepare('SELECT id FROM sessions').all()).toStrictEqual([{ id: 's1' }]);
      raw.close();
    } finally {
      process.chdir(cwd);
      t.remove();
    }
  });
});
