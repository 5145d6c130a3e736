/**
 * The stores the crash tests kill, one factory each: adding a store (Postgres) is one more entry
 * in STORES. A factory makes a place for a store (a file, a folder, a schema), opens it, and in
 * the child reports each persistence step inside the store as a kill point — from test code only,
 * by wrapping the driver the store uses (never a hook in src/).
 */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type JsonlStore, openJsonlStore } from '../../src/store/jsonl.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import type { ExtraCheck } from './check.js';
import { jsonlFiles } from './jsonl-files.js';
import { postgresCrash } from './postgres.js';
import { statementName } from './sql-names.js';

/** Called at a persistence step inside a store; the child may die there. */
export type Point = (name: string) => void;

export interface CrashStore {
  readonly kind: string;
  /** A new, empty place for a store (parent side). */
  place(tag: string): Promise<string> | string;
  /** Opens the store at `place`; with `point`, every persistence step inside it is reported. */
  open(place: string, point?: Point): Promise<Store> | Store;
  /**
   * Waits until nothing the dead child `pid` started can still change the store (parent). A
   * server outlives its client: it finishes a COMMIT it received, or rolls back, after the kill.
   */
  settled?(pid: number): Promise<void>;
  /** Checks of this kind's own (its files), after the sessions `ids` took an append (parent). */
  check?: ExtraCheck;
  /** Whether the store can run here (a server answers); the tests of one that cannot are skipped. */
  available?(): Promise<boolean>;
  /** Removes every place this factory made. */
  cleanup(): Promise<void> | void;
}

function tempPlaces(prefix: string) {
  let root: string | undefined;
  return {
    make(tag: string): string {
      root ??= mkdtempSync(join(tmpdir(), prefix));
      return join(root, tag);
    },
    cleanup(): void {
      if (root) rmSync(root, { recursive: true, force: true });
    },
  };
}

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
/** Where the patched driver reports to: the child's kill switch (the patch is made once). */
let sqlitePoint: Point | undefined;

/**
 * Kill points inside better-sqlite3 (child only): before every writing statement, and at the
 * start and the end of every transaction callback — the end is after every statement of the
 * transaction and before its COMMIT.
 */
function sqlitePoints(point: Point): void {
  const patched = sqlitePoint !== undefined;
  sqlitePoint = point;
  if (patched) return;
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, AnyFn>;
  probe.close();
  for (const method of ['run', 'get', 'all'] as const) {
    const original = statement[method]!;
    statement[method] = function (this: unknown, ...args: unknown[]) {
      const name = statementName((this as { source: string }).source);
      if (name) sqlitePoint?.(`sql ${name}`);
      return original.apply(this, args);
    };
  }
  const proto = Database.prototype as unknown as { transaction: (fn: AnyFn) => AnyFn };
  const transaction = proto.transaction;
  proto.transaction = function (this: unknown, fn: AnyFn) {
    return transaction.call(this, function (this: unknown, ...args: unknown[]) {
      sqlitePoint?.('tx begun');
      const result = fn.apply(this, args);
      sqlitePoint?.('tx before commit');
      return result;
    });
  };
}

const sqlitePlaces = tempPlaces('condense-crash-sqlite-');
export const sqliteCrash: CrashStore = {
  kind: 'sqlite',
  place: (tag) => {
    const dir = sqlitePlaces.make(tag);
    mkdirSync(dir, { recursive: true });
    return join(dir, 'condense.db');
  },
  open(place, point) {
    if (point) sqlitePoints(point);
    return sqliteStore({ path: place });
  },
  cleanup: sqlitePlaces.cleanup,
};

/** A step name without what varies from run to run (archive timestamps, session ids). */
function jsonlStepName(step: string): string {
  return step.replace(/^moved (?!current\.jsonl$|archives\.json$).*/, 'moved *');
}

const jsonlPlaces = tempPlaces('condense-crash-jsonl-');
export const jsonlCrash: CrashStore = {
  kind: 'jsonl',
  place: (tag) => jsonlPlaces.make(tag),
  // The JSONL store reports its own steps (its crash tests stop there); nothing to wrap.
  open: (place, point) => openJsonlStore({ dir: place }, (step) => point?.(`step ${jsonlStepName(step)}`)),
  check: (store, ids) => jsonlFiles(store as JsonlStore, ids),
  cleanup: jsonlPlaces.cleanup,
};

export const STORES: readonly CrashStore[] = [sqliteCrash, jsonlCrash, postgresCrash];

export function crashStore(kind: string): CrashStore {
  const found = STORES.find((s) => s.kind === kind);
  if (!found) throw new Error(`no crash store ${kind}`);
  return found;
}
