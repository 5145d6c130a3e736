import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { StoredEvent } from '../store/events.js';
import type { EventFlags, FilterFlags } from './events-input.js';
import { type CommonOptions, print, readStore, table, withStore } from './io.js';

/** Validation (zod) loads only when an events command runs, not at every CLI start. */
const input = () => import('./events-input.js');

const filters = (c: Command) =>
  c
    .option('--channel <name>', 'only this channel')
    .option('--author <name>', 'only this author')
    .option('--since <time>', 'at or after (ISO 8601 or ms)')
    .option('--until <time>', 'before (ISO 8601 or ms)')
    .option('--limit <n>', 'at most this many (default 20)');

const row = (e: StoredEvent) => [
  new Date(e.at).toISOString().slice(0, 19),
  e.channel,
  e.author,
  e.body.replace(/\s+/g, ' ').slice(0, 80),
];

export function registerEvents(program: Command, common: (c: Command) => Command): void {
  const events = program
    .command('events')
    .description('the events ledger: external channel events, kept for good (never compacted or pruned)');

  common(events.command('add'))
    .description('record events (a redelivered one is recorded once); --session also quotes them there')
    .option('--file <path>', 'a JSON array of events, or JSON Lines (one event per line); - reads stdin')
    .option('--channel <name>', 'channel of a single event (discord, imessage, mail…)')
    .option('--external-id <id>', "the channel's own id of the event")
    .option('--author <name>', 'who wrote it')
    .option('--at <time>', 'when (ISO 8601 or ms; default now)')
    .option('--body <text>', 'what it says')
    .option('--metadata <json>', 'a JSON object kept with it')
    .option('--session <id>', 'append one message quoting the events to this session')
    .action(async (opts: CommonOptions & EventFlags & { file?: string; session?: string }) => {
      const { eventFromFlags, eventsFromText, ledgerOf } = await input();
      const stdin = opts.file === '-';
      const list =
        opts.file === undefined
          ? [eventFromFlags(opts)]
          : eventsFromText(readFileSync(stdin ? 0 : opts.file, 'utf8'), stdin ? 'stdin' : opts.file);
      const started = Date.now();
      const result = await withStore(opts, async (store) => {
        const ledger = ledgerOf(store);
        if (opts.session === undefined) return { events: await ledger.addEvents(list), entryId: null };
        const { existingSession } = await import('./open.js');
        const quoted = await (await existingSession(store, opts.session, opts)).quoteEvents(list);
        return { events: quoted.events, entryId: quoted.entry.id };
      });
      // An event recorded before this run was already in the ledger (a redelivery).
      const known = result.events.filter((e) => e.recordedAt < started).length;
      print(opts, { events: result.events, quotedBy: result.entryId }, () =>
        [
          `recorded ${result.events.length} event(s)${known > 0 ? ` (${known} already in the ledger)` : ''}`,
          ...result.events.map((e) => `  ${e.id}  ${e.channel}/${e.externalId}`),
          ...(result.entryId ? [`quoted in ${opts.session} by entry ${result.entryId}`] : []),
        ].join('\n'),
      );
    });

  filters(common(events.command('list')))
    .description('events in time order')
    .action(async (opts: FilterFlags) => {
      const { filterOf, ledgerOf } = await input();
      const list = await readStore(opts, (store) => ledgerOf(store).listEvents(filterOf(opts)));
      print(opts, list, () =>
        list.length === 0 ? 'no events' : table([['at', 'channel', 'author', 'body'], ...list.map(row)]),
      );
    });

  filters(common(events.command('search <query>')))
    .description('full-text search over authors and bodies, best match first')
    .action(async (query: string, opts: FilterFlags) => {
      const { filterOf, ledgerOf } = await input();
      const hits = await readStore(opts, (store) => ledgerOf(store).searchEvents(query, filterOf(opts)));
      print(opts, hits, () =>
        hits.length === 0
          ? `nothing found for ${JSON.stringify(query)}`
          : table([
              ['at', 'channel', 'author', 'snippet'],
              ...hits.map((h) => [...row(h.event).slice(0, 3), h.snippet]),
            ]),
      );
    });
}
