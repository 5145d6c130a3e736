import type { Command } from 'commander';
import type { ArchiveRead } from '../recall/archive.js';
import { type CommonOptions, print, readStore } from './io.js';
import type { ModelOptions } from './open.js';
import { PRESET_HELP } from './presets.js';

interface ArchiveCliOptions extends CommonOptions {
  range?: string;
  preset?: string;
}

/** `A..B`, `A..`, `..B` or `A`: entry seqs, inclusive. */
export function parseRange(value: string): { from?: number; to?: number } {
  const match = /^(\d+)?(?:\.\.(\d+)?)?$/.exec(value.trim());
  if (match === null || value.trim() === '' || value.trim() === '..')
    throw new Error(`--range must be entry seqs like 120..140, 120.. or 120, got '${value}'`);
  const [, from, to] = match;
  const single = !value.includes('..');
  return {
    ...(from === undefined ? {} : { from: Number(from) }),
    ...(single ? { to: Number(from) } : to === undefined ? {} : { to: Number(to) }),
  };
}

export function registerArchive(program: Command, common: (c: Command) => Command): void {
  const archive = program
    .command('archive')
    .description("the conversation a session's latest compaction summarized");
  common(archive.command('read <session>'))
    .description('print the most recent archive: what the latest compaction summarized, by entry seq')
    .option('--range <A..B>', 'only the entries with these seqs, inclusive (e.g. 120..140)')
    .option('--preset <name>', `store and layout of a preset: ${PRESET_HELP}`)
    .action(async (id: string, opts: ArchiveCliOptions) => {
      const range = opts.range === undefined ? {} : parseRange(opts.range);
      const [{ existingSession }, { readLatestArchive }] = await Promise.all([
        import('./open.js'),
        import('../recall/archive.js'),
      ]);
      const read = await readStore(opts, async (store) => {
        const session = await existingSession(store, id, opts as ModelOptions);
        // A person asked for this range: all of it, long outputs shortened only past 20,000 characters.
        return readLatestArchive(session, range, {
          entries: Number.MAX_SAFE_INTEGER,
          chars: Infinity,
          entryChars: 20_000,
        });
      });
      if (read.status === 'refused') throw new Error(read.message);
      print(opts, read, () => formatArchive(id, read));
    });
}

function formatArchive(id: string, read: ArchiveRead): string {
  if (read.status !== 'ok') return read.message;
  const name = read.archive ?? `entries ${read.first}..${read.last}`;
  const head = `${name}: summarized by compaction ${read.compactionId}, ${read.count} entries (seqs ${read.first}..${read.last})`;
  const body = read.entries.map((e) => `[${e.seq}] ${e.text}`);
  const more =
    read.next === null
      ? []
      : [`more: condense archive read ${id} --range ${read.next.from}..${read.next.to}`];
  return [head, '', ...body, ...more].join('\n');
}
