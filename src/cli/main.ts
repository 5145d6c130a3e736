#!/usr/bin/env node
import { Command } from 'commander';
import { registerCompact } from './cmd-compact.js';
import { registerImport } from './cmd-import.js';
import { registerInspect } from './cmd-inspect.js';
import { registerPrune } from './cmd-prune.js';
import { registerValidate } from './cmd-validate.js';
import { registerDemo } from './demo.js';
import { DEFAULT_DB } from './io.js';

const common = (c: Command) =>
  c
    .option('--db <path>', `SQLite database file (default ${DEFAULT_DB})`)
    .option('--json', 'machine-readable output');

export function program(): Command {
  const p = new Command('condense')
    .description("keep an agent's conversation inside its model's context window")
    .addHelpText(
      'after',
      '\nExit status: 0 success, 1 `validate` found violations, 2 error (message on stderr).',
    );
  registerImport(p, common);
  registerInspect(p, common);
  registerPrune(p, common);
  registerCompact(p, common);
  registerValidate(p);
  registerDemo(p, common);
  return p;
}

program()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`condense: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = process.exitCode || 2;
  });
