#!/usr/bin/env node
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { CONFIG_FILE_NAMES } from '../config/find.js';
import { DEFAULT_JSONL_DIR } from '../store/jsonl.js';
import { registerArchive } from './cmd-archive.js';
import { registerCompact } from './cmd-compact.js';
import { registerCost } from './cmd-cost.js';
import { registerEval } from './cmd-eval.js';
import { registerEvents } from './cmd-events.js';
import { registerImport } from './cmd-import.js';
import { registerInspect } from './cmd-inspect.js';
import { registerLineage } from './cmd-lineage.js';
import { registerMigrate } from './cmd-migrate.js';
import { registerPrune } from './cmd-prune.js';
import { registerReport } from './cmd-report.js';
import { registerSearch } from './cmd-search.js';
import { registerValidate } from './cmd-validate.js';
import { registerDemo } from './demo.js';
import { DEFAULT_DB } from './io.js';
import { redactForPrint } from './redact.js';

const common = (c: Command) =>
  c
    .option(
      '--db <path>',
      `SQLite database file, or JSONL store folder (default: store.path of the config file, else ${DEFAULT_DB}; ${DEFAULT_JSONL_DIR} with the seed-003 preset)`,
    )
    .option('--pg <url>', 'a PostgreSQL connection string instead of --db (default: $CONDENSE_PG_URL)')
    .option(
      '--pg-schema <name>',
      'the Postgres schema holding the tables (default: $CONDENSE_PG_SCHEMA, else condense)',
    )
    .option('--config <file>', `configuration file (default: ${CONFIG_FILE_NAMES.join(' or ')} here)`)
    .option('--json', 'machine-readable output');

/** package.json, two folders up from both src/cli and dist/cli. */
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

export function program(): Command {
  const p = new Command('condense')
    .description("keep an agent's conversation inside its model's context window")
    .version(version, '-V, --version', 'print the version')
    // Options before the command are the program's, after it the command's: both spellings work.
    .enablePositionalOptions()
    // A usage error throws (exit 2 below), instead of commander's own exit 1; commands inherit it.
    .exitOverride()
    .addHelpText(
      'after',
      '\nExit status: 0 success, 1 `validate` found violations, 2 error or wrong usage (message on stderr).',
    );
  common(p);
  // `condense --db x.db sessions`: options given before the command count as the command's own.
  p.hook('preAction', (root, command) => {
    for (const option of root.options) {
      const key = option.attributeName();
      const value = root.getOptionValue(key);
      const own = command.options.some((o) => o.attributeName() === key);
      if (value !== undefined && own && command.getOptionValue(key) === undefined)
        command.setOptionValue(key, value);
    }
  });
  registerImport(p, common);
  registerInspect(p, common);
  registerPrune(p, common);
  registerCompact(p, common);
  registerArchive(p, common);
  registerLineage(p, common);
  registerSearch(p, common);
  registerEvents(p, common);
  registerReport(p, common);
  registerCost(p, common);
  registerMigrate(p, common);
  registerValidate(p);
  registerDemo(p, common);
  registerEval(p);
  return p;
}

/** Every failure is one line on stderr, credentials masked (a provider's error may echo its key). */
function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`condense: ${redactForPrint(message)}\n`);
  process.exitCode = process.exitCode || 2;
}

/** An error outside the command's promise ends the run as Node would, but without a stack trace showing a key. */
function crash(error: unknown): never {
  fail(error);
  process.exit();
}

process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
// Output piped to a reader that has stopped (`| head`): nothing more to say, and no error to show.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') crash(error);
    process.exit(process.exitCode ?? 0);
  });
program()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    // Commander printed the usage error (or the help, or the version) already.
    if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : 2;
    else fail(error);
  });
