import type { Command } from 'commander';
import { type CommonOptions, print, requireSession, withStore } from './io.js';
import { PRESET_HELP } from './presets.js';

interface PruneCliOptions extends CommonOptions {
  dryRun?: boolean;
  preset?: string;
}

export function registerPrune(program: Command, common: (c: Command) => Command): void {
  common(program.command('prune <session>'))
    .description('hide old tool outputs from the model (they stay stored); idempotent')
    .option('--dry-run', 'show what would be cleared and the tokens saved, write nothing')
    .option('--preset <name>', `pruning rules of a preset: ${PRESET_HELP}`)
    .action(async (id: string, opts: PruneCliOptions) => {
      const [{ openSession }, { commandOptions, warnFallback }] = await Promise.all([
        import('../session/index.js'),
        import('./open.js'),
      ]);
      // Qwery's overflow check at open would compact: not what this command is for.
      const options = await commandOptions(opts, { checks: { atOpen: false } });
      // Opening with when 'open' would already prune (Qwery), before a dry run could report.
      const prune = options.prune === false ? false : { ...options.prune, when: 'turn' as const };
      const outcome = await withStore(opts, async (store) => {
        await requireSession(store, id, opts);
        const session = warnFallback(await openSession(store, id, { ...options, prune }));
        return session.prune({ dryRun: opts.dryRun });
      });
      const result = outcome
        ? {
            dryRun: outcome.dryRun,
            parts: outcome.parts,
            tokensSaved: outcome.tokensSaved,
            reason: outcome.plan.reason,
            // The planner lists candidates even when too few to prune; only real marks are shown.
            marks: outcome.parts > 0 ? outcome.plan.marks : [],
          }
        : {
            dryRun: !!opts.dryRun,
            parts: 0,
            tokensSaved: 0,
            reason: 'pruning is off in this preset or configuration',
            marks: [],
          };
      print(opts, result, () =>
        [
          `${result.dryRun ? 'would clear' : 'cleared'} ${result.parts} tool outputs, ${result.tokensSaved} tokens (${result.reason})`,
          ...result.marks.map((m) => `  ${m.entryId} part ${m.partIndex}: ${m.tokens} tokens`),
        ].join('\n'),
      );
    });
}
