#!/usr/bin/env node
// The installed command runs the compiled CLI (built by `npm run build`, which `npm install` runs).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
import(main.href).catch((error) => {
  // Without the build the hint is to build; otherwise (e.g. better-sqlite3, an optional
  // dependency, failed to install) the error itself says what is missing.
  const hint = existsSync(main) ? '' : '; run `npm run build` first';
  process.stderr.write(`condense: cannot start (${error.message})${hint}\n`);
  process.exitCode = 2;
});
