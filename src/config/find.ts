import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../model/errors.js';

/**
 * The names a configuration file is looked for under in the working directory. This module has no
 * parser behind it, so the CLI finds out whether there is a file before it loads one.
 */
export const CONFIG_FILE_NAMES = ['condense.config.json', 'condense.config.yaml', 'condense.config.yml'];

/** The one configuration file in `cwd`; two of them would leave it unclear which one applies. */
export function findConfigFile(cwd: string): string | undefined {
  const found = CONFIG_FILE_NAMES.map((name) => join(cwd, name)).filter((f) => existsSync(f));
  if (found.length > 1)
    throw new InputError(`${found.join(' and ')} both exist; keep one (or pass --config FILE)`, {
      file: found[0],
    });
  return found[0];
}
