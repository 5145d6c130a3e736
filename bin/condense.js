#!/usr/bin/env node
// The installed command runs the compiled CLI (built by `npm run build`, which `npm install` runs).
import('../dist/cli/main.js').catch((error) => {
  process.stderr.write(`condense: cannot start (${error.message}); run \`npm run build\` first\n`);
  process.exitCode = 2;
});
