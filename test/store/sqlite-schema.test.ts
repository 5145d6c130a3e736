import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite.js';
import { ENTRY_WRITE_COLUMNS, entryValues } from '../../src/store/sqlite-rows.js';
import { MIGRATIONS, migrate, SCHEMA_VERSION, schemaVersion } from '../../src/store/sqlite-schema.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';
import { tempDir } from './sqlite-helpers.js';

describe('sqlite schema and migrations', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function fresh(): string {
    const t = tempDir();
    cleanups.push(t.remove);
    return t.dbPath;
  }

  function inspect(path: string): { version: number; objects: unknown[] } {
    const raw = new Database(path, { readonly: true });
    const objects = raw.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    const version = schemaVersion(raw);
    raw.close();
    return { version, objects };
  }

  it('sets user_version to the number of migrations', async () => {
    const path = fresh();
    await sqliteStore({ path }).close();
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(inspect(path).version).toBe(SCHEMA_VERSION);
  });

  it('a session written before the compaction task was renamed reads back with the new part type', async () => {
    const path = fresh().replace(/nested\/condense\.db$/, 'old.db');
    const raw = new Database(path);
    migrate(raw, MIGRATIONS.slice(0, 1));
    const record = sessionRecord('old');
    raw
      .prepare(
        'INSERT INTO sessions (id, created_at, updated_at, head_id, version, next_seq, metadata, state) VALUES (?, 0, 0, ?, 1, 1, ?, ?)',
      )
      .run('old', 'm1', '{}', JSON.stringify(record.state));
    const marker = { role: 'user', parts: [{ type: 'compaction-marker', auto: true }] };
    raw
      .prepare(
        "INSERT INTO entries (session_id, seq, id, parent_id, kind, created_at, tokens, part_tokens, role, body) VALUES ('old', 0, 'm1', NULL, 'message', 0, 5, '[5]', 'user', ?)",
      )
      .run(JSON.stringify(marker));
    raw.close();
    const reopened = sqliteStore({ path });
    const [entry] = await reopened.loadFrom('old', 0);
    await reopened.close();
    expect(entry).toMatchObject({
      kind: 'message',
      message: { parts: [{ type: 'compaction', auto: true }] },
    });
  });

  it('reopening does not re-run migrations or touch the data', async () => {
    const path = fresh();
    const first = sqliteStore({ path });
    const record = sessionRecord('s1');
    await first.createSession(record);
    const entries = textEntries('s1', 4);
    await first.append(entries, commitAfter(record, entries));
    await first.close();
    const before = inspect(path);
    for (let i = 0; i < 3; i++) {
      const again = sqliteStore({ path });
      expect(await again.loadFrom('s1', 0)).toStrictEqual(entries);
      await again.close();
    }
    expect(inspect(path)).toStrictEqual(before);
  });

  it('a failing migration step leaves the file at the previous version with nothing of the step', () => {
    const raw = new Database(fresh().replace(/nested\/condense\.db$/, 'plain.db'));
    cleanups.push(() => {
      raw.close();
    });
    const steps = [
      ...MIGRATIONS,
      (db: Database.Database) => {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('step failed');
      },
    ];
    expect(() => migrate(raw, steps)).toThrow('step failed');
    expect(schemaVersion(raw)).toBe(MIGRATIONS.length);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").all()).toStrictEqual([]);
    migrate(raw);
    expect(schemaVersion(raw)).toBe(MIGRATIONS.length);
  });

  it('entries a version-1 file already holds are found after migrating, a corrupt one by its raw text', async () => {
    const path = fresh().replace(/nested\/condense\.db$/, 'v1.db');
    const raw = new Database(path);
    migrate(raw, MIGRATIONS.slice(0, 1));
    raw
      .prepare('INSERT INTO sessions VALUES (?, 1, 1, NULL, 1, 700, ?, ?)')
      .run('s1', '{}', JSON.stringify(sessionRecord('s1').state));
    const insert = raw.prepare(
      `INSERT INTO entries (${ENTRY_WRITE_COLUMNS.join(', ')}) VALUES (${ENTRY_WRITE_COLUMNS.map(() => '?').join(', ')})`,
    );
    // More than one batch of the backfill.
    raw.transaction(() => {
      for (const entry of textEntries('s1', 700)) insert.run(entryValues(entry));
    })();
    raw.prepare("UPDATE entries SET body = '{broken quetzal' WHERE seq = 3").run();
    raw.close();
    const store = sqliteStore({ path });
    cleanups.push(() => store.close());
    expect(inspect(path).version).toBe(SCHEMA_VERSION);
    expect((await store.search('"message 699"')).map((h) => h.entryId)).toStrictEqual(['s1-e699']);
    expect((await store.search('message', { limit: 1000 })).length).toBe(699);
    // Found, not a failed search: the hit names the row to repair.
    expect(await store.search('quetzal')).toMatchObject([
      { seq: 3, role: 'assistant', snippet: '{broken «quetzal»' },
    ]);
  });

  it('refuses a file written by a newer schema', async () => {
    const path = fresh();
    await sqliteStore({ path }).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => sqliteStore({ path })).toThrow(/newer than this condense/);
  });

  it('readonly opens a migrated file for reads and refuses writes', async () => {
    const path = fresh();
    const writer = sqliteStore({ path });
    await writer.createSession(sessionRecord('s1'));
    await writer.close();
    const reader = sqliteStore({ path, readonly: true });
    cleanups.push(() => reader.close());
    expect((await reader.getSession('s1'))?.id).toBe('s1');
    await expect(reader.createSession(sessionRecord('s2'))).rejects.toThrow(/readonly/);
  });

  it('readonly refuses a missing file and one that was never migrated', () => {
    const path = fresh();
    expect(() => sqliteStore({ path, readonly: true })).toThrow();
    const plain = path.replace(/nested\/condense\.db$/, 'plain.db');
    new Database(plain).close();
    expect(() => sqliteStore({ path: plain, readonly: true })).toThrow(/schema version is 0/);
  });
});
