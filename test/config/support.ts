import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { type LoadedConfig, loadConfig } from '../../src/config/index.js';
import { InputError } from '../../src/model/index.js';

const root = mkdtempSync(join(tmpdir(), 'condense-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;

/** A fresh folder holding `files` (name → text). */
export function folder(files: Record<string, string> = {}): string {
  dirs += 1;
  const dir = join(root, `d${dirs}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Loads `text` as a configuration file of the given name. */
export function load(text: string, name = 'condense.config.yaml'): LoadedConfig {
  return loadConfig(join(folder({ [name]: text }), name));
}

/** The InputError loading `text` raises (failing the test when it loads). */
export function loadError(text: string, name = 'condense.config.yaml'): InputError {
  try {
    load(text, name);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error(`expected the configuration to be refused:\n${text}`);
}
