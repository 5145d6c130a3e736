import { sqliteStore } from '../store/index.js';
import type { Store } from '../store/store.js';

export interface CommonOptions {
  db?: string;
  json?: boolean;
}

export const DEFAULT_DB = '.condense/condense.db';

export function openStore(opts: CommonOptions): Store {
  return sqliteStore({ path: opts.db ?? DEFAULT_DB });
}

/** Runs a command body with a store that is always closed afterwards. */
export async function withStore<T>(opts: CommonOptions, body: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(opts);
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
export async function requireSession(store: Store, id: string, opts: CommonOptions): Promise<void> {
  if (!(await store.getSession(id)))
    throw new Error(`no session '${id}' in ${opts.db ?? DEFAULT_DB} (list them with: condense sessions)`);
}

/** Prints either JSON (for --json) or the human text. */
export function print(opts: CommonOptions, value: unknown, human: () => string): void {
  process.stdout.write(opts.json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export function table(rows: (string | number)[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
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
