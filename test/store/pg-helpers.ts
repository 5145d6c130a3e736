import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test server (notes: trust auth, database `test`); CONDENSE_TEST_PG_URL points elsewhere. */
export const PG_URL = process.env.CONDENSE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether the test server answers. Without it the Postgres tests skip with a message, except under
 * CI=true where a missing server fails the run: CI must never pass by skipping them.
 */
export async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if (process.env.CI === 'true' || process.env.CI === '1') {
      throw new Error(`CI=true and no Postgres at ${PG_URL}: ${(error as Error).message}`);
    }
    console.warn(`no Postgres at ${PG_URL} (${(error as Error).message}): Postgres tests skipped`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh schema name for one test file: condense_test_<random>. */
export function testSchema(): string {
  return `condense_test_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** Empties the store's tables between tests (the ledger refuses DELETE, not TRUNCATE). */
export async function emptySchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(
    `TRUNCATE "${schema}".entries, "${schema}".sessions, "${schema}".events RESTART IDENTITY CASCADE`,
  );
}

/** Fresh schemas for a test file, each name kept so that `dropAll` (in afterAll) removes them. */
export function schemaTracker(pool: pg.Pool) {
  const schemas: string[] = [];
  return {
    fresh(): string {
      const schema = testSchema();
      schemas.push(schema);
      return schema;
    },
    async dropAll(): Promise<void> {
      for (const schema of schemas) await dropSchema(pool, schema);
    },
  };
}
