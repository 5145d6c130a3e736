/**
 * Seed 002's SQL on the SQLite store (agent-turns-cases.ts), and the view's plan: a session filter
 * reads only that session's entries.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite.js';
import { agentTurnsCases, type SeedDb, type SqlRunner, type TurnsDb } from './agent-turns-cases.js';
import { tempDir } from './sqlite-helpers.js';

describe('agent_turns: seed 002 SQL on the SQLite store', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function open(path: string, readonly = true): Database.Database {
    const db = new Database(path, { readonly });
    cleanups.push(() => {
      db.close();
    });
    return db;
  }

  const runner = (db: () => Database.Database): SqlRunner => ({
    all: async <R>(sql: string, ...params: unknown[]) =>
      db()
        .prepare(sql)
        .all(...params) as R[],
  });

  function seedCopy(path: string, sql: string): SeedDb {
    const seed = open(':memory:', false);
    // The table it references is in a document the seed does not include: its key is enough. With
    // foreign keys enforced, every parent, summarized and kept turn the view names must exist.
    seed.pragma('foreign_keys = ON');
    seed.exec('CREATE TABLE agent_sessions (id TEXT PRIMARY KEY)');
    seed.exec(sql);
    seed.prepare('ATTACH DATABASE ? AS condense').run(path);
    seed.exec('INSERT INTO agent_sessions SELECT id FROM condense.sessions');
    seed.exec('INSERT INTO agent_turns SELECT * FROM condense.agent_turns');
    return {
      ...runner(() => seed),
      plan: async (query) =>
        (seed.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[])
          .map((p) => p.detail)
          .join('\n'),
    };
  }

  async function fresh(): Promise<TurnsDb> {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    cleanups.push(t.remove, () => store.close());
    // Opened at the first query, once the store has made the file.
    let raw: Database.Database | undefined;
    const db = () => {
      raw ??= open(t.dbPath);
      return raw;
    };
    return {
      store,
      db: runner(db),
      columns: async () =>
        (db().prepare('PRAGMA table_info(agent_turns)').all() as { name: string }[]).map((c) => c.name),
      seedCopy: async (sql) => seedCopy(t.dbPath, sql),
    };
  }

  agentTurnsCases(fresh);

  it('reads only the asked session’s entries, through the primary key', async () => {
    const { db } = await fresh();
    const plan = await db.all<{ detail: string }>(
      'EXPLAIN QUERY PLAN SELECT * FROM agent_turns WHERE session_id = ?',
      's',
    );
    const text = plan.map((r) => r.detail).join('\n');
    expect(text).toMatch(/SEARCH e USING INDEX sqlite_autoindex_entries_1 \(session_id=\?\)/);
    expect(text).not.toMatch(/SCAN (e|entries)\b/);
  });
});
