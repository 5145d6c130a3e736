/**
 * The Postgres store for the crash tests: each place is a schema of its own (created by the
 * store's first migration, dropped by cleanup), and in the child every statement the driver sends
 * — BEGIN, each write, COMMIT — is a kill point. A killed child's connection drops; the server
 * then commits a transaction whose COMMIT it had received, or rolls it back, in its own time: the
 * parent waits until the server holds no connection of the child before it looks.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresStore } from '../../src/store/postgres.js';
import { PG_URL, pgReachable } from '../store/pg-helpers.js';
import { statementName } from './sql-names.js';
import type { CrashStore, Point } from './stores.js';

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
let pgPoint: Point | undefined;

function pgPoints(point: Point): void {
  const patched = pgPoint !== undefined;
  pgPoint = point;
  if (patched) return;
  const query = pg.Client.prototype.query as unknown as Query;
  (pg.Client.prototype as unknown as { query: Query }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const config = args[0];
    const text =
      typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? '');
    const name = /^\s*(BEGIN|COMMIT)\b/i.exec(text)?.[1]?.toUpperCase() ?? statementName(text);
    if (name) pgPoint?.(`sql ${name}`);
    const result = query.apply(this, args);
    // Sent (the socket has the bytes) but not acknowledged: the server commits after the kill.
    if (name === 'COMMIT') pgPoint?.('sql COMMIT sent');
    return result;
  };
}

const schemas: string[] = [];
const applicationName = (pid: number) => `condense-crash-${pid}`;

export const postgresCrash: CrashStore = {
  kind: 'postgres',
  place: (tag) => {
    const schema = `condense_test_crash_${tag.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
    schemas.push(schema);
    return schema;
  },
  available: pgReachable,
  open(schema, point) {
    if (!point) return postgresStore({ connectionString: PG_URL, schema });
    // The child: its connections carry its pid, so the parent can wait for the server to end them.
    pgPoints(point);
    const url = new URL(PG_URL);
    url.searchParams.set('application_name', applicationName(process.pid));
    return postgresStore({ connectionString: url.toString(), schema });
  },
  async settled(pid) {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      for (let waited = 0; ; waited += 20) {
        const { rows } = await client.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [applicationName(pid)],
        );
        if (rows[0].n === 0) return;
        if (waited > 10_000) throw new Error(`the server still serves the killed child ${pid} after 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await client.end();
    }
  },
  async cleanup() {
    if (schemas.length === 0) return;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  },
};
