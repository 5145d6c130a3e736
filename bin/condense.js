#!/usr/bin/env node
// The installed command runs the compiled CLI (built by `npm run build`, which `npm install` runs).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
import(main.href).catch((error) => {
  // The command line's own packages are optional (a library user does not need them): say which
  // to install. Without the build the hint is to build; otherwise (e.g. better-sqlite3, an
  // optional dependency, failed to install) the error itself says what is missing.
  const missing = /Cannot find package '(commander)'/.exec(error.message)?.[1];
  const hint = existsSync(main) ? '' : '; run `npm run build` first';
  process.stderr.write(
    missing
      ? `condense: the command line needs the '${missing}' package: npm install ${missing}\n`
      : `condense: cannot start (${error.message})${hint}\n`,
  );
  process.exitCode = 2;
});
