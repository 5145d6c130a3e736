/**
 * Seed 002 §Database Schema on condense's own stores: the seed's `CREATE INDEX idx_turns_compaction`
 * exists as written (on the entries table, where turn_type lives: agent_turns is a view over it)
 * and serves the seed's compaction lookup, on SQLite and on Postgres. The seed's DDL itself runs
 * as written on both (test/store/agent-turns-cases.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openSession, presetOptions } from '../../src/session/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { migrateSchema } from '../../src/store/postgres-schema.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { dropSchema, PG_URL, pgReachable, testSchema } from '../store/pg-helpers.js';
import { tempDir } from '../store/sqlite-helpers.js';
import { sizedSay, sizedUser } from './support.js';

const seedsDir = new URL('../../../shared/seeds/', import.meta.url);

/** The seed's CREATE INDEX line, verbatim. */
function seedIndex(): string {
  const name = readdirSync(seedsDir).find((f) => f.startsWith('002_'))!;
  return /^CREATE INDEX idx_turns_compaction .*$/m.exec(readFileSync(new URL(name, seedsDir), 'utf8'))![0];
}

/** A compacted seed-002 session: turns 1-3 summarized, 4-5 kept. */
async function compacted(store: Store): Promise<void> {
  const session = await openSession(store, 'nexus', {
    ...presetOptions('seed-002'),
    model: 'nexus-model',
    limits: { contextWindow: 200_000 },
  });
  for (const [n, tokens] of [50_000, 50_000, 50_001, 15_000, 15_000].entries())
    await session.append([
      sizedUser(`turn-00${n + 1} query`, 1_000),
      sizedSay(`response ${n + 1}`, tokens - 1_000),
    ]);
  expect((await session.prepare()).compaction?.status).toBe('compacted');
}

const reachable = await pgReachable();
const COMPACTIONS = "SELECT id FROM agent_turns WHERE turn_type = 'compaction'";

// The seed's text is read from the design documents beside the checkout, as the other seed-text tests do.
describe.skipIf(!existsSync(seedsDir))('seed 002 §Database Schema: CREATE INDEX idx_turns_compaction', () => {
  it('SQLite: the index as the seed writes it, used by a turn_type = compaction lookup', async () => {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    try {
      await compacted(store);
      const db = new Database(t.dbPath, { readonly: true });
      try {
        const row = db
          .prepare("SELECT tbl_name, sql FROM sqlite_master WHERE name = 'idx_turns_compaction'")
          .get() as {
          tbl_name: string;
          sql: string;
        };
        expect(`${row.sql};`).toBe(seedIndex().replace('agent_turns', 'entries'));
        const plan = (
          db.prepare("EXPLAIN QUERY PLAN SELECT id FROM entries WHERE turn_type = 'compaction'").all() as {
            detail: string;
          }[]
        ).map((p) => p.detail);
        expect(plan.join('\n')).toContain('idx_turns_compaction');
        expect(db.prepare(COMPACTIONS).all()).toHaveLength(1);
      } finally {
        db.close();
      }
    } finally {
      await store.close();
      t.remove();
    }
  });

  it.skipIf(!reachable)('Postgres: the same index, partial on turn_type = compaction', async () => {
    const schema = testSchema();
    const pool = new pg.Pool({ connectionString: PG_URL, max: 2, options: `-c search_path=${schema}` });
    try {
      await migrateSchema(pool, schema);
      await compacted(postgresStore({ pool, schema }));
      const { rows } = await pool.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'idx_turns_compaction'",
        [schema],
      );
      expect(rows.map((r) => r.indexdef)).toEqual([
        `CREATE INDEX idx_turns_compaction ON ${schema}.entries USING btree (turn_type) WHERE (turn_type = 'compaction'::text)`,
      ]);
      expect((await pool.query(COMPACTIONS)).rows).toHaveLength(1);
    } finally {
      await dropSchema(pool, schema);
      await pool.end();
    }
  });
});
