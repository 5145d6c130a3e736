import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { FORMAT_NAMES, type FormatName, type ImportedSession, parseTranscript } from '../import/index.js';
import { InputError } from '../model/errors.js';
import type { Store } from '../store/store.js';
import { type Imported, planImport, writeImport } from './import-write.js';
import { type CommonOptions, oneOf, print, withStore } from './io.js';

interface ImportOptions extends CommonOptions {
  session?: string;
  format?: string;
}

/**
 * Imports a transcript file. Everything is parsed and checked before anything is written, so bad
 * input leaves the database untouched; a file with many runs (tau-bench) gives ids `ID-1`, `ID-2`, ….
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
  const ids = sessions.map((_, i) => (sessions.length === 1 ? base : `${base}-${i + 1}`));
  return writeImport(store, await planImport(store, sessions, ids, file));
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
