import type { Command } from 'commander';
import { type CommonOptions, int, print, readStore, requireSession, table } from './io.js';

export function registerSearch(program: Command, common: (c: Command) => Command): void {
  common(program.command('search <query>'))
    .description(
      'full-text search over every entry ever stored: pruned tool outputs and summarized history included (words in any case; "a phrase"; prefix*)',
    )
    .option('--session <id>', 'only this session')
    .option('--limit <n>', 'at most this many hits (default 20)')
    .action(async (query: string, opts: CommonOptions & { session?: string; limit?: string }) => {
      const hits = await readStore(opts, async (store) => {
        if (opts.session !== undefined) await requireSession(store, opts.session, opts);
        return store.search(query, {
          ...(opts.session !== undefined ? { sessionId: opts.session } : {}),
          ...(opts.limit !== undefined ? { limit: int(opts.limit, '--limit') } : {}),
        });
      });
      print(opts, hits, () =>
        hits.length === 0
          ? `nothing found for ${JSON.stringify(query)}`
          : fitToWidth(
              table([
                ['session', 'seq', 'role', 'snippet'],
                ...hits.map((h) => [clip(h.sessionId, 24), h.seq, h.role ?? 'summary', h.snippet]),
              ]),
              process.stdout.columns || 100,
            ),
      );
    });
}

/** `text` cut to `width` characters, the cut marked with an ellipsis. */
export function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Each line of a table cut to the terminal's width (the entry ids and whole snippets are in --json). */
export function fitToWidth(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => clip(line.trimEnd(), Math.max(40, width)))
    .join('\n');
}
