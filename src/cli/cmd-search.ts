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
          : table([
              ['session', 'seq', 'entry', 'role', 'snippet'],
              ...hits.map((h) => [h.sessionId, h.seq, h.entryId, h.role ?? 'summary', h.snippet]),
            ]),
      );
    });
}
