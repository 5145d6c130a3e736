import { createHash } from 'node:crypto';
import type PgModule from 'pg';
import type { Pool, PoolClient } from 'pg';
import { importPeer } from '../model/peer.js';

// Loaded with the `condense-context/postgres` entry; without `pg` installed, the import says what to install.
const pg = (await importPeer<{ default: typeof PgModule }>('pg', 'condense-context/postgres')).default;

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

const names = new Map<string, string>();

/**
 * Runs a statement of the per-turn path as a prepared one: each connection parses and plans it
 * once. Named after its text, so that stores on other schemas sharing a pool never clash.
 */
export async function prepared<R>(
  c: Pool | PoolClient,
  text: string,
  values: readonly unknown[],
): Promise<R[]> {
  let name = names.get(text);
  if (name === undefined) {
    name = `condense_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  const result = await c.query({ name, text, values: values as unknown[], types: TYPES });
  return result.rows as R[];
}

/**
 * One transaction on one connection: committed when `body` resolves, rolled back when it throws.
 * A connection whose rollback failed (it broke) is destroyed instead of going back to the pool.
 */
export async function inTransaction<T>(pool: Pool, body: (c: PoolClient) => Promise<T>): Promise<T> {
  const release = guarded(await pool.connect());
  const broken = await settle(release.client, body);
  release(broken.error);
  return broken.unwrap();
}

/**
 * A checked-out client with an 'error' listener until it is released. pg emits 'error' on a
 * client whose server connection drops (a failover, a proxy's idle timeout, pg_terminate_backend)
 * even while a query of ours is failing with it; with no listener Node ends the process. The pool
 * listens on idle clients only, and only when someone listens on the pool (see listenOnPool).
 */
export function guarded(client: PoolClient): ((error?: Error | boolean) => void) & { client: PoolClient } {
  const ignore = () => {}; // the failing query reports the loss to its caller
  client.on('error', ignore);
  return Object.assign(
    (error?: Error | boolean) => {
      client.removeListener('error', ignore);
      client.release(error);
    },
    { client },
  );
}

/**
 * Listens for errors of idle clients on `pool` (the pool drops such a client itself), so that a
 * dropped idle connection does not end the process. Returns the function removing the listener:
 * an application's pool gets it only while the store uses it.
 */
export function listenOnPool(pool: Pool): () => void {
  const ignore = () => {};
  pool.on('error', ignore);
  return () => pool.removeListener('error', ignore);
}

/**
 * Whether `error` says the connection to the server was lost (or could not be made): the
 * operation did not finish and may succeed on a new connection. Postgres class 08 (connection
 * exception) and 57P01-03 (the server shut the session down or is starting), socket errors, and
 * the messages pg gives a connection that ended under it.
 */
export function connectionLost(error: unknown): boolean {
  const { code } = pgError(error);
  if (code !== undefined && (LOST_CODES.has(code) || code.startsWith('08'))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|not queryable|Connection ended|timeout exceeded when trying to connect/i.test(
    message,
  );
}

const LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
]);

/** The connection broke while COMMIT was on its way: the transaction may or may not have landed. */
export class CommitUnknownError extends Error {
  override name = 'CommitUnknownError';
  constructor(override readonly cause: unknown) {
    super(`the connection was lost during COMMIT: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** Runs `body` in a transaction on `client`; says whether the connection broke on the way. */
export async function settle<T>(
  client: PoolClient,
  body: (c: PoolClient) => Promise<T>,
): Promise<{ error?: Error; unwrap: () => T }> {
  let committing = false;
  try {
    await client.query('BEGIN');
    const result = await body(client);
    committing = true;
    await client.query('COMMIT');
    return { unwrap: () => result };
  } catch (caught) {
    // Lost before COMMIT was sent, the server rolls the transaction back; lost during it, who knows.
    const error = committing && connectionLost(caught) ? new CommitUnknownError(caught) : caught;
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

/** A pool of the store's own, listening for errors of its idle clients (see listenOnPool). */
export function newPool(connectionString: string): Pool {
  const pool = new pg.Pool({ connectionString });
  listenOnPool(pool);
  return pool;
}
