import type { SessionOptions } from '../session/options.js';
import type { PresetName } from '../session/preset-names.js';
import { presetOptions } from '../session/presets.js';
import { mergeOptions } from './merge.js';
import { readConfig } from './read.js';

export interface LoadedConfig {
  /** The file read; undefined when none was given and the working directory has none. */
  file?: string;
  /** The preset the file names (its canonical name, e.g. `seed-001` for `opencode`). */
  preset?: PresetName;
  /** Options for `openSession`: the preset's, with the file's settings on top. */
  options: SessionOptions;
  /** Store settings: `path` is the SQLite database file for `sqliteStore({ path })`. */
  store: { path?: string };
}

/**
 * Reads `condense.config.json` / `.yaml` (the file at `path`, or the one in the working
 * directory) into session options. Unknown keys, wrong types and contradictions throw an
 * InputError naming the file, the line and the key. Precedence: your own options over the file
 * (`mergeOptions(loaded.options, mine)`), the file over its preset, the preset over the defaults.
 */
export function loadConfig(path?: string, opts: { cwd?: string } = {}): LoadedConfig {
  const { file, preset, options, store } = readConfig(path, opts.cwd);
  const merged = preset ? mergeOptions(presetOptions(preset), options) : options;
  return { ...(file ? { file } : {}), ...(preset ? { preset } : {}), options: merged, store };
}
