import { readdirSync, type Stats, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What went wrong opening `--db PATH`, in the user's terms: the store's own errors name a syscall
 * (`EEXIST: file already exists, mkdir …`) or SQLite's code, not which part of the path to fix.
 */
export function dbOpenError(path: string, error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  const reason = error instanceof Error ? error.message : String(error);
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    const file = fileAncestor(path);
    if (file !== undefined) return new Error(`--db ${path}: ${file} is a file, not a folder`);
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new Error(`--db ${path}: no permission to create or write it (${reason})`);
  if (code === 'SQLITE_CANTOPEN' && isFolder(path))
    return new Error(`--db ${path} is a folder; give a file path, e.g. ${join(path, 'condense.db')}`);
  if (code === 'SQLITE_NOTADB') return new Error(`--db ${path} is not a SQLite database`);
  return new Error(`--db ${path}: cannot open the database (${reason})`);
}

/** A store a read-only command found missing: nothing is created for it (a file in the way is named). */
export function missingStoreError(path: string, what: string): Error {
  const file = fileAncestor(path);
  if (file !== undefined) return new Error(`--db ${path}: ${file} is a file, not a folder`);
  return new Error(
    `no ${what} at ${path}: nothing to read, and nothing was created (give --db PATH of an existing one)`,
  );
}

/** The nearest existing ancestor of `path` that is not a folder, if any. */
function fileAncestor(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const stat = statOrUndefined(dir);
    if (stat !== undefined && !stat.isDirectory()) return dir;
    if (stat !== undefined || dirname(dir) === dir) return undefined;
  }
}

export function isFile(path: string): boolean {
  return statOrUndefined(path)?.isFile() ?? false;
}

/** A folder with at least one JSONL store session in it (a sub-folder holding session.json). */
export function holdsJsonlSessions(path: string): boolean {
  if (!isFolder(path)) return false;
  return readdirSync(path).some(
    (name) => statOrUndefined(join(path, name, 'session.json'))?.isFile() ?? false,
  );
}

function isFolder(path: string): boolean {
  return statOrUndefined(path)?.isDirectory() ?? false;
}

/** undefined when nothing is there, including below a file (ENOTDIR). */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
