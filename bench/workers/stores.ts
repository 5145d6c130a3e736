/**
 * The store the concurrency workers share, named by a spec string that a child process takes on
 * its command line: `sqlite:<file>` or `postgres:<schema>@<url>`. The workers, the checks and the
 * benchmark run on either unchanged.
 */

import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { postgresStore } from '../../src/store/postgres.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';

/** Opens a store from the part of a spec after its `kind:` prefix. */
export type StoreFactory = (target: string) => Store | Promise<Store>;

const FACTORIES: Record<string, StoreFactory> = {
  sqlite: (path) => sqliteStore({ path }),
  postgres: (target) => {
    const at = target.indexOf('@');
    return postgresStore({ connectionString: target.slice(at + 1), schema: target.slice(0, at) });
  },
};

/** The Postgres server the load run uses: CONDENSE_PG_URL, else the local test server. */
export const BENCH_PG_URL = process.env.CONDENSE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function openStore(spec: string): Promise<Store> {
  const at = spec.indexOf(':');
  const factory = at > 0 ? FACTORIES[spec.slice(0, at)] : undefined;
  if (factory === undefined)
    throw new Error(`unknown store spec "${spec}": expected ${Object.keys(FACTORIES).join(' | ')}:<target>`);
  return factory(spec.slice(at + 1));
}

/** A store for one run: its spec, and how to remove it afterwards. */
export interface StoreTarget {
  kind: string;
  spec: string;
  dispose(): Promise<void>;
}

/** The stores the load benchmark runs on: SQLite, and Postgres when its server answers. */
export async function loadTargets(dir: string): Promise<StoreTarget[]> {
  const targets = [sqliteTarget(dir)];
  const client = new pg.Client({ connectionString: BENCH_PG_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    targets.push(postgresTarget(BENCH_PG_URL));
  } catch (error) {
    process.stderr.write(
      `no Postgres at ${BENCH_PG_URL} (${(error as Error).message}): load run on SQLite only\n`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  return targets;
}

/** A fresh schema on a Postgres server, dropped afterwards. */
export function postgresTarget(url: string): StoreTarget {
  const schema = `condense_load_${randomBytes(6).toString('hex')}`;
  return {
    kind: 'postgres',
    spec: `postgres:${schema}@${url}`,
    async dispose() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
    },
  };
}

/** A fresh SQLite file in `dir`. */
export function sqliteTarget(dir: string, name = 'workers.db'): StoreTarget {
  const path = join(dir, name);
  return {
    kind: 'sqlite',
    spec: `sqlite:${path}`,
    async dispose() {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}
