import type { Command } from 'commander';
import { type CommonOptions, print, storePlace, withStore } from './io.js';

export function registerMigrate(program: Command, common: (c: Command) => Command): void {
  common(program.command('migrate'))
    .description(
      "create or update the store's tables. Postgres: one step at a time under an advisory lock, safe to run from many processes at once; a SQLite file is brought up to date as it opens",
    )
    .action(async (opts: CommonOptions) => {
      const place = await storePlace(opts);
      if (place.kind !== 'postgres') {
        await withStore(opts, (store) => store.listSessions());
        print(
          opts,
          { kind: place.kind, path: place.path },
          () => `${place.kind} store ${place.path} is up to date`,
        );
        return;
      }
      const { migratePostgres } = await import('../postgres.js');
      const result = await migratePostgres(
        { connectionString: place.url! },
        place.schema ? { schema: place.schema } : {},
      );
      print(opts, { kind: place.kind, ...result }, () =>
        result.from === result.to
          ? `postgres schema ${result.schema} at ${place.path} is up to date (version ${result.to})`
          : `postgres schema ${result.schema} at ${place.path}: version ${result.from} → ${result.to}`,
      );
    });
}
