import { existsSync } from 'node:fs';
import { findConfigFile } from '../config/find.js';
import type { ConfigFile } from '../config/read.js';
import { type PresetName, presetStore } from '../session/preset-names.js';
import { DEFAULT_SQLITE_PATH, sqliteStore } from '../sqlite.js';
import { DEFAULT_JSONL_DIR, jsonlStore } from '../store/jsonl.js';
import type { Store } from '../store/store.js';
import { dbOpenError, holdsJsonlSessions, isFile, missingStoreError } from './db-path.js';
import { printableUrl } from './pg-url.js';
import { presetChoice } from './presets.js';

export interface CommonOptions {
  db?: string;
  /** A Postgres connection string instead of `--db` (or CONDENSE_PG_URL). */
  pg?: string;
  /** The Postgres schema (or CONDENSE_PG_SCHEMA; default condense). */
  pgSchema?: string;
  json?: boolean;
  /** A configuration file instead of the working directory's `condense.config.*`. */
  config?: string;
}

export const DEFAULT_DB = DEFAULT_SQLITE_PATH;

const configs = new Map<string | undefined, Promise<ConfigFile>>();

/**
 * The configuration file this run uses (`--config`, else the working directory's), read once.
 * Its parser loads only when there is a file, so runs without one start no slower.
 */
export function cliConfig(opts: CommonOptions): Promise<ConfigFile> {
  let config = configs.get(opts.config);
  if (!config) {
    const file = opts.config ?? findConfigFile(process.cwd());
    config =
      file === undefined
        ? Promise.resolve({ options: {}, store: {} })
        : import('../config/read.js').then(({ readConfig }) => readConfig(file));
    configs.set(opts.config, config);
  }
  return config;
}

/** The preset a command runs under: `--preset`, else the configuration file's `preset`. */
export async function chosenPreset(
  opts: CommonOptions & { preset?: string },
): Promise<PresetName | undefined> {
  return opts.preset ? presetChoice(opts.preset) : (await cliConfig(opts)).preset;
}

/** Where the run's sessions are kept, and in which kind of store. */
export interface StorePlace {
  kind: 'sqlite' | 'jsonl' | 'postgres';
  /** Where, as printed: for Postgres the connection string without its password. */
  path: string;
  /** Postgres only: the connection string itself, and the schema. */
  url?: string;
  schema?: string;
}

/** `--pg`, else CONDENSE_PG_URL unless `--db` names a file; both flags at once is an error. */
function postgresPlace(opts: CommonOptions): StorePlace | undefined {
  if (opts.pg !== undefined && opts.db !== undefined) throw new Error('give either --db or --pg, not both');
  const url = opts.pg ?? (opts.db === undefined ? process.env.CONDENSE_PG_URL : undefined);
  if (url === undefined || url === '') return undefined;
  const schema = opts.pgSchema ?? process.env.CONDENSE_PG_SCHEMA;
  return { kind: 'postgres', path: printableUrl(url), url, ...(schema ? { schema } : {}) };
}

/**
 * `--pg` or CONDENSE_PG_URL (Postgres), else `--db`, else the configuration file's `store.path`, else the default of the preset's store
 * (Pegasus: a JSONL folder). A path that already holds the other kind of store opens as that
 * kind. The file is read even when `--db` makes its path moot: a broken file stops every
 * command, not only some.
 */
export async function storePlace(opts: CommonOptions & { preset?: string }): Promise<StorePlace> {
  const { store } = await cliConfig(opts);
  const postgres = postgresPlace(opts);
  if (postgres) return postgres;
  const kind = presetStore(await chosenPreset(opts));
  const path = opts.db ?? store.path;
  if (path === undefined) return { kind, path: kind === 'jsonl' ? DEFAULT_JSONL_DIR : DEFAULT_DB };
  if (kind === 'jsonl' && isFile(path)) return { kind: 'sqlite', path };
  if (kind === 'sqlite' && holdsJsonlSessions(path)) return { kind: 'jsonl', path };
  return { kind, path };
}

/**
 * The store the run uses; a path that cannot hold one is reported as such. `read`: the command only
 * reads, so the store must exist already — opening a missing SQLite file or JSONL folder would
 * create it (the folders and an empty database) as a side effect — and a Postgres schema is checked,
 * not created.
 */
export async function openStore(
  opts: CommonOptions & { preset?: string },
  mode: 'write' | 'read' = 'write',
): Promise<Store> {
  const place = await storePlace(opts);
  if (place.kind === 'postgres') {
    // pg loads only for a Postgres run; it connects (and migrates) at the first call.
    const { postgresStore } = await import('../postgres.js');
    return postgresStore({
      connectionString: place.url!,
      ...(place.schema ? { schema: place.schema } : {}),
      ...(mode === 'read' ? { migrate: false } : {}),
    });
  }
  const { kind, path } = place;
  if (mode === 'read' && !existsSync(path))
    throw missingStoreError(path, kind === 'jsonl' ? 'JSONL store folder' : 'database');
  try {
    return kind === 'jsonl' ? jsonlStore({ dir: path }) : sqliteStore({ path });
  } catch (error) {
    throw dbOpenError(path, error);
  }
}

/** withStore for a command that only reads: the store must exist, nothing is created (see openStore). */
export function readStore<T>(
  opts: CommonOptions & { preset?: string },
  body: (store: Store) => Promise<T>,
): Promise<T> {
  return withStore(opts, body, 'read');
}

/** Runs a command body with a store that is always closed afterwards (`read`: see openStore). */
export async function withStore<T>(
  opts: CommonOptions & { preset?: string },
  body: (store: Store) => Promise<T>,
  mode: 'write' | 'read' = 'write',
): Promise<T> {
  const store = await openStore(opts, mode);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/**
 * Fails unless the session exists. Commands that only read or change a session must not create
 * one as a side effect (openSession would), and the message says which database was searched.
 */
export async function requireSession(
  store: Store,
  id: string,
  opts: CommonOptions & { preset?: string },
): Promise<void> {
  if (!(await store.getSession(id)))
    throw new Error(
      `no session '${id}' in ${(await storePlace(opts)).path} (list them with: condense sessions)`,
    );
}

/** Prints either JSON (for --json) or the human text. */
export function print(opts: CommonOptions, value: unknown, human: () => string): void {
  process.stdout.write(opts.json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export function table(rows: (string | number)[][]): string {
  if (rows.length === 0) return '';
  // A loop, not Math.max(...): a listing of any length stays within the argument limit.
  const widths = rows[0]!.map((_, c) => rows.reduce((w, r) => Math.max(w, String(r[c] ?? '').length), 0));
  return rows
    .map((r) =>
      r
        .map((cell, c) =>
          typeof cell === 'number' ? String(cell).padStart(widths[c]!) : String(cell).padEnd(widths[c]!),
        )
        .join('  '),
    )
    .join('\n');
}

export function int(value: string, name: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative whole number, got '${value}'`);
  return n;
}

/** Checks a choice option against its allowed values (commander does not for plain options). */
export function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new Error(`${name} must be one of ${allowed.join(', ')}, got '${value}'`);
  return value as T;
}
