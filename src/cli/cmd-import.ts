import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { FORMAT_NAMES, type FormatName, type ImportedSession, parseTranscript } from '../import/index.js';
import { InputError } from '../model/errors.js';
import type { Store } from '../store/store.js';
import type { Imported } from './import-write.js';
import { type CommonOptions, oneOf, print, withStore } from './io.js';

interface ImportOptions extends CommonOptions {
  session?: string;
  format?: string;
}

/**
 * Imports a transcript file. Everything is parsed and checked before anything is written, so bad
 * input leaves the database untouched; a file with many runs (tau-bench) gives one session per run.
 */
export async function importFile(store: Store, file: string, opts: ImportOptions): Promise<Imported[]> {
  const format = opts.format === undefined ? undefined : oneOf(opts.format, FORMAT_NAMES, '--format');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read file (${(error as Error).message})`, { file });
  }
  const parsed = parseTranscript(text, { file, format: format as FormatName | undefined });
  const sessions: ImportedSession[] = Array.isArray(parsed) ? parsed : [parsed];
  if (sessions.length === 0) throw new InputError('no conversation found in the file', { file });
  const base = opts.session ?? sessions[0]?.condense?.session.id ?? basename(file).replace(/\.[^.]+$/, '');
  // The session layer loads only once the input has parsed: bad input fails fast.
  const { planImport, writeImport } = await import('./import-write.js');
  return writeImport(store, await planImport(store, sessions, sessionIds(base, sessions), file));
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

export function registerImport(program: Command, common: (c: Command) => Command): void {
  common(program.command('import <file>'))
    .description(
      'import a transcript (OpenAI Chat messages, condense JSONL, Claude Code, Codex, Gemini CLI, tau-bench, SWE-agent)',
    )
    .option('--session <id>', 'session id (default: the id in a condense export, else the file name)')
    .option('--format <name>', `force a format instead of detecting it: ${FORMAT_NAMES.join(' | ')}`)
    .action(async (file: string, opts: ImportOptions) => {
      const result = await withStore(opts, (store) => importFile(store, file, opts));
      print(opts, result, () =>
        result.map((r) => `imported ${r.messages} messages into session ${r.session}`).join('\n'),
      );
    });
}
