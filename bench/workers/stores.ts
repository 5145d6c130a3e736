/**
 * The store the concurrency workers share, named by a spec string that a child process takes on
 * its command line: `sqlite:<file>`. Another store plugs in as one more prefix here (Postgres:
 * `postgres:<url>`), and the workers, the checks and the benchmark run on it unchanged.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';

/** Opens a store from the part of a spec after its `kind:` prefix. */
export type StoreFactory = (target: string) => Store | Promise<Store>;

const FACTORIES: Record<string, StoreFactory> = {
  sqlite: (path) => sqliteStore({ path }),
};

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

/**
 * The stores the load benchmark runs on: SQLite always; Postgres joins here (a fresh schema on
 * CONDENSE_PG_URL) once its store is in.
 */
export function loadTargets(dir: string): StoreTarget[] {
  return [sqliteTarget(dir)];
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
