import { basename } from 'node:path';
import type { Command } from 'commander';
import {
  describeIssues,
  FORMAT_NAMES,
  type ImportedSession,
  importFile as readAndParse,
} from '../import/index.js';
import { InputError } from '../model/errors.js';
import type { Store } from '../store/store.js';
import type { Imported } from './import-write.js';
import { type CommonOptions, oneOf, print, withStore } from './io.js';
import { PRESET_HELP } from './presets.js';
import { type Progress, progress } from './progress.js';
import { redactForPrint } from './redact.js';

interface ImportOptions extends CommonOptions {
  session?: string;
  format?: string;
  preset?: string;
  strict?: boolean;
}

/**
 * Imports a transcript file. Everything is parsed and checked before anything is written, so bad
 * input leaves the database untouched; a file with many runs (tau-bench) gives one session per run.
 * What was kept in another form than the file had it (a tool result answering no call, bytes that
 * are not UTF-8) is reported on stderr with its count and lines; `--strict` refuses the file instead.
 */
export async function importFile(store: Store, file: string, opts: ImportOptions): Promise<Imported[]> {
  const format = opts.format === undefined ? undefined : oneOf(opts.format, FORMAT_NAMES, '--format');
  const status = progress();
  try {
    return await importParsed(store, file, opts, format, status);
  } finally {
    status.done();
  }
}

async function importParsed(
  store: Store,
  file: string,
  opts: ImportOptions,
  format: (typeof FORMAT_NAMES)[number] | undefined,
  status: Progress,
): Promise<Imported[]> {
  status.update(`importing ${basename(file)}: reading…`);
  const parsed = await readAndParse(file, { format, strict: opts.strict });
  const sessions: ImportedSession[] = Array.isArray(parsed) ? parsed : [parsed];
  if (sessions.length === 0) throw new InputError('no conversation found in the file', { file });
  const base = opts.session ?? sessions[0]?.condense?.session.id ?? basename(file).replace(/\.[^.]+$/, '');
  // The session layer loads only once the input has parsed: bad input fails fast.
  const { planImport, writeImport } = await import('./import-write.js');
  const { sessionIdProblem } = await import('../model/text.js');
  const problem = opts.session === undefined ? undefined : sessionIdProblem(opts.session);
  if (problem) throw new Error(`--session ${JSON.stringify(opts.session)} ${problem}`);
  const messages = sessions.reduce((sum, s) => sum + s.messages.length, 0);
  status.update(`importing ${basename(file)}: writing ${messages.toLocaleString('en-US')} messages…`);
  const written = await writeImport(store, planImport(sessions, sessionIds(base, sessions), file), file);
  for (const line of describeIssues(
    sessions.flatMap((s) => s.issues ?? []),
    file,
  ))
    process.stderr.write(`condense: warning: ${redactForPrint(line)}\n`);
  return written;
}

/**
 * Ids for the sessions of one file: the base alone for one session; for many (tau-bench runs),
 * the base plus each run's own name (`task-3-trial-0`) when those are all present and distinct,
 * else plus its position.
 */
export function sessionIds(base: string, sessions: ImportedSession[]): string[] {
  if (sessions.length === 1) return [base];
  const names = sessions.map((s) => s.sessionId);
  const usable = names.every((n) => n !== undefined && n !== '') && new Set(names).size === names.length;
  return sessions.map((s, i) => `${base}-${usable ? s.sessionId : i + 1}`);
}

function describeImport(r: Imported): string {
  if (r.unchanged)
    return `session ${r.session} already holds this import (${r.messages} messages): unchanged`;
  const compactions = r.compactions ? ` and ${r.compactions} compactions` : '';
  const warnings = (r.warnings ?? []).map((w) => `\n  note: ${w}`).join('');
  return `imported ${r.messages} messages${compactions} into session ${r.session}${warnings}`;
}

export function registerImport(program: Command, common: (c: Command) => Command): void {
  common(program.command('import <file>'))
    .description(
      'import a transcript (OpenAI Chat or Responses, Anthropic Messages, condense JSONL, Claude Code incl. sub-agent files, Codex, Gemini CLI, tau-bench, SWE-agent .traj/.yaml, OpenHands)',
    )
    .option('--session <id>', 'session id (default: the id in a condense export, else the file name)')
    .option('--format <name>', `force a format instead of detecting it: ${FORMAT_NAMES.join(' | ')}`)
    .option(
      '--strict',
      'refuse the file when anything would be kept in another form (a tool result answering no call, bytes that are not UTF-8) instead of reporting it',
    )
    .option(
      '--preset <name>',
      `the preset whose store receives it (seed-003: a JSONL folder): ${PRESET_HELP}`,
    )
    .action(async (file: string, opts: ImportOptions) => {
      const result = await withStore(opts, (store) => importFile(store, file, opts));
      print(opts, result, () => result.map(describeImport).join('\n'));
    });
}
