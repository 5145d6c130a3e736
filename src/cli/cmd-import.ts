import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import {
  type FormatName,
  type ImportedSession,
  parseCondenseJsonl,
  parseTranscript,
} from '../import/index.js';
import { InputError } from '../model/errors.js';
import { emptySessionState } from '../model/session.js';
import { openSession } from '../session/index.js';
import { stateFromEntries } from '../session/state.js';
import type { Store } from '../store/store.js';
import { type CommonOptions, print, withStore } from './io.js';

interface ImportOptions extends CommonOptions {
  session?: string;
  format?: FormatName;
}

/** Parses everything before writing anything: bad input leaves the database untouched. */
export async function importFile(
  store: Store,
  file: string,
  opts: ImportOptions,
): Promise<{ session: string; messages: number }[]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read file (${(error as Error).message})`, { file });
  }
  const base = opts.session ?? basename(file).replace(/\.[^.]+$/, '');
  if (opts.format === 'condense' || (!opts.format && /^\s*\{"type":"session"/.test(text))) {
    const parsed = parseCondenseJsonl(text, { file });
    const id = opts.session ?? parsed.session.id;
    if (await store.getSession(id)) throw new InputError(`session '${id}' already exists`, { file });
    const entries = parsed.entries.map((e) => ({ ...e, sessionId: id }));
    const t = Date.now();
    const record = {
      id,
      createdAt: parsed.session.createdAt ?? t,
      updatedAt: t,
      headId: null,
      version: 0,
      nextSeq: 0,
      metadata: parsed.session.metadata ?? {},
      state: emptySessionState(),
    };
    await store.createSession(record);
    await store.append(entries, {
      sessionId: id,
      expectedVersion: 0,
      headId: entries.at(-1)?.id ?? null,
      nextSeq: (entries.at(-1)?.seq ?? -1) + 1,
      state: stateFromEntries(entries, record.state),
    });
    return [{ session: id, messages: entries.length }];
  }
  const parsed = parseTranscript(text, { file, format: opts.format });
  const sessions: ImportedSession[] = Array.isArray(parsed) ? parsed : [parsed];
  const ids = sessions.map((_, i) => (sessions.length === 1 ? base : `${base}-${i + 1}`));
  for (const id of ids) {
    if (await store.getSession(id))
      throw new InputError(`session '${id}' already exists (use --session)`, { file });
  }
  const out: { session: string; messages: number }[] = [];
  for (const [i, imported] of sessions.entries()) {
    const session = await openSession(store, ids[i]!);
    const messages = imported.messages.map((m) => m.message);
    if (imported.system)
      messages.unshift({ role: 'system', parts: [{ type: 'text', text: imported.system }] });
    await session.append(messages);
    out.push({ session: ids[i]!, messages: messages.length });
  }
  return out;
}

export function registerImport(program: Command, common: (c: Command) => Command): void {
  common(program.command('import <file>'))
    .description(
      'import a transcript (OpenAI Chat messages, condense JSONL, Claude Code, Codex, Gemini CLI, tau-bench, SWE-agent)',
    )
    .option('--session <id>', 'session id (default: the file name)')
    .option('--format <name>', 'force a format instead of detecting it')
    .action(async (file: string, opts: ImportOptions) => {
      const result = await withStore(opts, (store) => importFile(store, file, opts));
      print(opts, result, () =>
        result.map((r) => `imported ${r.messages} messages into session ${r.session}`).join('\n'),
      );
    });
}
