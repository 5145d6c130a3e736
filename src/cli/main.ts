#!/usr/bin/env node
import { Command } from 'commander';
import { CONFIG_FILE_NAMES } from '../config/find.js';
import { DEFAULT_JSONL_DIR } from '../store/jsonl.js';
import { registerArchive } from './cmd-archive.js';
import { registerCompact } from './cmd-compact.js';
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
  registerArchive(p, common);
  registerLineage(p, common);
  registerSearch(p, common);
  registerEvents(p, common);
  registerReport(p, common);
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
program().parseAsync(process.argv).catch(fail);
