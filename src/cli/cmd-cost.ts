import type { Command } from 'commander';
import { formatSessionCost, sessionCost } from '../cost/session-cost.js';
import { type CommonOptions, print, readStore, requireSession } from './io.js';

export function registerCost(program: Command, common: (c: Command) => Command): void {
  common(program.command('cost <session>'))
    .description(
      "what the session's requests cost, from the usage each reply stored: requests, input, cache reads and writes, output, dollars at the model catalog's prices",
    )
    .option('--model <id>', "model whose prices apply (default: the session's)")
    .action(async (id: string, opts: CommonOptions & { model?: string }) => {
      const cost = await readStore(opts, async (store) => {
        await requireSession(store, id, opts);
        const record = (await store.getSession(id))!;
        const stored = typeof record.metadata.model === 'string' ? record.metadata.model : 'unknown';
        return sessionCost(await store.loadFrom(id, 0), opts.model ?? stored);
      });
      print(opts, { session: id, ...cost }, () => formatSessionCost(id, cost));
    });
}
