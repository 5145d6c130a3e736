import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/model/errors.js';

/** The shared real-data folder (never copied into the repository). */
export const DATA_DIR = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
export const HAS_DATA = existsSync(DATA_DIR);
export const NO_DATA_REASON = `real data folder ${DATA_DIR} is absent: real-transcript import tests skipped`;

export function dataPath(...parts: string[]): string {
  return join(DATA_DIR, ...parts);
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Files under a folder of the data set, recursively, whose names end with one of the extensions. */
export function dataFiles(folder: string, extensions: string[]): string[] {
  const root = dataPath(folder);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (extensions.some((ext) => name.endsWith(ext))) out.push(path);
    }
  };
  walk(root);
  return out;
}

/** Runs `fn`, expecting an InputError; returns it so the test can check file, line and field. */
export function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError, but nothing was thrown');
}
