/**
 * Seed 002's SQL on the Postgres store (agent-turns-cases.ts, the cases SQLite runs), and the
 * view's plan: a session filter, even as a parameter of a prepared statement, reads only that
 * session's entries through the primary key.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/store/postgres.js';
import { query } from '../../src/store/postgres-pool.js';
import { migrateSchema } from '../../src/store/postgres-schema.js';
import { agentTurnsCases, type SeedDb, type SqlRunner, type TurnsDb } from './agent-turns-cases.js';
import { dropSchema, emptySchema, PG_URL, pgReachable, testSchema } from './pg-helpers.js';

const reachable = await pgReachable();
const schema = testSchema();
const seedSchema = `${schema}_seed`;

/** Unqualified names (the cases' `agent_turns`) resolve in `path`. */
const poolOn = (path: string, max: number, settings = '') =>
  new pg.Pool({ connectionString: PG_URL, max, options: `-c search_path=${path}${settings}` });

const pool = poolOn(schema, 3);
// One connection, seq scans off: on the seed's ten rows a plan would scan rather than show which
// index serves the query.
const seedPool = poolOn(seedSchema, 1, ' -c enable_seqscan=off');

/**
 * The store's query path (BIGINT as numbers, as in SQLite), with `?` numbered as $1, $2, …: the
 * only change the seed's traversals need on Postgres.
 */
const runner = (p: pg.Pool | pg.PoolClient): SqlRunner => ({
  all: <R>(sql: string, ...params: unknown[]) => {
    let n = 0;
    return query<R>(
      p,
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
  },
});

/**
 * The seed's DDL in a schema of its own, with the one change Postgres requires: `timestamp` is
 * BIGINT, as ms since the epoch overflow its 32-bit INTEGER (SQLite's INTEGER is 64-bit).
 */
async function seedCopy(sql: string): Promise<SeedDb> {
  const seed = runner(seedPool);
  await dropSchema(pool, seedSchema);
  await seed.all(`CREATE SCHEMA "${seedSchema}"`);
  await seed.all('CREATE TABLE agent_sessions (id TEXT PRIMARY KEY)');
  await seed.all(sql.replace('timestamp INTEGER', 'timestamp BIGINT'));
  await seed.all(`INSERT INTO agent_sessions SELECT id FROM "${schema}".sessions`);
  await seed.all(`INSERT INTO agent_turns SELECT * FROM "${schema}".agent_turns`);
  return { ...seed, plan: async (text) => explain(seed, text) };
}

async function explain(db: SqlRunner, text: string): Promise<string> {
  const rows = await db.all<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${text}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe.skipIf(!reachable)('agent_turns: seed 002 SQL on the Postgres store', () => {
  afterAll(async () => {
    await dropSchema(pool, seedSchema);
    await dropSchema(pool, schema);
    await Promise.all([pool.end(), seedPool.end()]);
  });

  async function fresh(): Promise<TurnsDb> {
    await migrateSchema(pool, schema);
    await emptySchema(pool, schema);
    const db = runner(pool);
    return {
      store: postgresStore({ pool, schema }),
      db,
      columns: async () =>
        (
          await db.all<{ column_name: string }>(
            `SELECT column_name FROM information_schema.columns
             WHERE table_schema = ? AND table_name = 'agent_turns' ORDER BY ordinal_position`,
            schema,
          )
        ).map((c) => c.column_name),
      seedCopy,
    };
  }

  agentTurnsCases(fresh);

  it('reads only the asked session’s entries, through the primary key, for a parameter too', async () => {
    await fresh();
    // One connection: the prepared statement and the settings apply to the EXPLAIN.
    const client = await pool.connect();
    try {
      const db = runner(client);
      await db.all('PREPARE one_session(text) AS SELECT * FROM agent_turns WHERE session_id = $1');
      await db.all('SET plan_cache_mode = force_generic_plan');
      await db.all('SET enable_seqscan = off');
      const plan = await explain(db, "EXECUTE one_session('s')");
      // The filter reaches the scan of entries under every window partitioned by session.
      expect(plan).toMatch(/on entries e\n\s+(Index|Recheck) Cond: \(session_id = \$1\)/);
      expect(plan).not.toMatch(/Seq Scan on entries/);
    } finally {
      // Settings and the statement would outlive the test on a pooled connection.
      client.release(true);
    }
  });
});
