import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite.js';
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
