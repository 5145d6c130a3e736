// `condense-context/postgres`: the store for many processes or machines. Its own entry, like
// `condense-context/sqlite`: only this path loads `pg` (a peer dependency to install alongside).
import type { Pool } from 'pg';
import { newPool } from './store/postgres-pool.js';
import { DEFAULT_PG_SCHEMA, type MigrateResult, migrateSchema } from './store/postgres-schema.js';

export { type PostgresStoreOptions, postgresStore } from './store/postgres.js';
export { DEFAULT_PG_SCHEMA, type MigrateResult };

/**
 * Creates or updates condense's tables in `schema` (default `condense`), as `condense migrate
 * --pg URL` does. Safe to run from many processes at once: one applies each step, the others wait
 * and find nothing left to do. A store migrates on first use anyway unless told `migrate: false`.
 */
export async function migratePostgres(
  target: { connectionString: string } | { pool: Pool },
  opts: { schema?: string } = {},
): Promise<MigrateResult> {
  const pool = 'pool' in target ? target.pool : newPool(target.connectionString);
  try {
    return await migrateSchema(pool, opts.schema ?? DEFAULT_PG_SCHEMA);
  } finally {
    if (!('pool' in target)) await pool.end();
  }
}
