import type PgModule from 'pg';
import type { Pool, PoolClient } from 'pg';
import { importPeer } from '../model/peer.js';

// Loaded with the `condense/postgres` entry; without `pg` installed, the import says what to install.
const pg = (await importPeer<{ default: typeof PgModule }>('pg', 'condense/postgres')).default;

/**
 * How values come back, whoever configured the pool: BIGINT as a number (seqs, versions and ms
 * timestamps stay far below 2^53), JSON and JSONB as their text, so that the store parses them
 * itself and names a row it cannot read (CorruptRowError) instead of failing inside the driver.
 */
const INT8 = 20;
const JSON_OIDS = new Set([114, 3802]);
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => Number(value);
    if (JSON_OIDS.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as PgModule.CustomTypesConfig;

/** Runs one statement; rows typed by the caller. */
export async function query<R>(
  c: Pool | PoolClient,
  text: string,
  values: readonly unknown[] = [],
): Promise<R[]> {
  const result = await c.query({ text, values: values as unknown[], types: TYPES });
  return result.rows as R[];
}

/**
 * One transaction on one connection: committed when `body` resolves, rolled back when it throws.
 * A connection whose rollback failed (it broke) is destroyed instead of going back to the pool.
 */
export async function inTransaction<T>(pool: Pool, body: (c: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const broken = await settle(client, body);
  client.release(broken.error);
  return broken.unwrap();
}

/** Runs `body` in a transaction on `client`; says whether the connection broke on the way. */
export async function settle<T>(
  client: PoolClient,
  body: (c: PoolClient) => Promise<T>,
): Promise<{ error?: Error; unwrap: () => T }> {
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return { unwrap: () => result };
  } catch (error) {
    let broke: Error | undefined;
    await client.query('ROLLBACK').catch((e: Error) => {
      broke = e;
    });
    return {
      ...(broke ? { error: broke } : {}),
      unwrap: () => {
        throw error;
      },
    };
  }
}

/** The code and constraint of a Postgres error (23505 is a unique violation). */
export function pgError(error: unknown): { code?: string; constraint?: string } {
  return (error ?? {}) as { code?: string; constraint?: string };
}

export function newPool(connectionString: string): Pool {
  return new pg.Pool({ connectionString });
}
