import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../model/errors.js';
import { findConfigFile } from './find.js';
import { type ConfigIssue, configIssues, defaultMessage } from './issues.js';
import { fieldOf, type ParsedText, parseConfigText } from './parse.js';
import { configSchema } from './schema.js';
import { type ConfigSettings, settingsOf } from './to-options.js';

export interface ConfigFile extends ConfigSettings {
  /** The file read (absolute path); undefined when none was given or found. */
  file?: string;
}

/**
 * The configuration file `path`, or else the one in `cwd` (none there: no settings). Nothing is
 * half-applied: any problem throws an InputError naming the file, the line and the key, with every
 * other problem of the file listed after it.
 */
export function readConfig(path?: string, cwd = process.cwd()): ConfigFile {
  const file = path === undefined ? findConfigFile(cwd) : resolve(cwd, path);
  if (file === undefined) return { options: {}, store: {} };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the configuration file (${(error as Error).message})`, { file });
  }
  const settings = settingsFromText(text, file);
  // A database path in the file is relative to the file, so it means the same from any directory.
  const store = settings.store.path ? { path: resolve(dirname(file), settings.store.path) } : settings.store;
  return { file, ...settings, store };
}

/** Parses, checks and translates one configuration text. */
export function settingsFromText(text: string, file: string): ConfigSettings {
  const parsed = parseConfigText(text, file);
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    throw new InputError('the configuration must be a mapping of keys (e.g. `preset: opencode`)', {
      file,
      line: 1,
    });
  const checked = configSchema.safeParse(parsed.value, { reportInput: true, error: defaultMessage });
  const settings = checked.success
    ? settingsOf(checked.data)
    : configIssues(checked.error.issues, configSchema);
  if (Array.isArray(settings)) throw located(settings, parsed, file);
  return settings;
}

/** One error for all of a file's problems, in line order: the first located, the others listed. */
function located(issues: ConfigIssue[], parsed: ParsedText, file: string): InputError {
  const [first, ...rest] = issues
    .map(({ path, reason }) => ({ reason, where: { file, line: parsed.lineOf(path), field: fieldOf(path) } }))
    .sort((a, b) => (a.where.line ?? 0) - (b.where.line ?? 0));
  const more = rest.map(({ reason, where }) => `\n  ${new InputError(reason, where).message}`).join('');
  return new InputError(`${first!.reason}${more}`, first!.where);
}
