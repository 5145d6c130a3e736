import type { Command } from 'commander';
import { beforeTurnDecision } from '../budget/index.js';
import type { ContextFormat } from '../context/index.js';
import { exportJsonl } from '../import/index.js';
import { type CommonOptions, oneOf, print, readStore, requireSession, table } from './io.js';
import type { ModelOptions } from './open.js';
import { PRESET_HELP, presetChoice } from './presets.js';
import { formatStats, sessionStats } from './stats.js';

export const CONTEXT_FORMATS: readonly ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];

/** The session layer is loaded only by the commands that open a session (see presets.ts). */
const opener = () => import('./open.js');

export function registerInspect(program: Command, common: (c: Command) => Command): void {
  common(program.command('sessions'))
    .description('list sessions')
    .action(async (opts: CommonOptions) => {
      // A stored system prompt can be long: the listing says it is there rather than printing it.
      const rows = (await readStore(opts, (store) => store.listSessions())).map(({ metadata, ...row }) => {
        const { system, ...rest } = metadata;
        return {
          ...row,
          metadata: typeof system === 'string' ? { ...rest, system: `(${system.length} characters)` } : rest,
        };
      });
      print(opts, rows, () =>
        rows.length === 0
          ? 'no sessions'
          : table([
              ['session', 'entries', 'tokens', 'in view'],
              ...rows.map((r) => [r.id, r.entryCount, r.totalTokens, r.activeTokens]),
            ]),
      );
    });

  common(program.command('stats <session>'))
    .description(
      'what fills the window on the next request: system prompt, tools, summary, messages, tool results, free space and where it compacts',
    )
    .option('--model <id>', 'model whose limits apply')
    .option('--context-window <n>', 'context window instead of the model catalog')
    .option('--preset <name>', `budget of a preset: ${PRESET_HELP}`)
    .action(async (id: string, opts: ModelOptions) => {
      const { existingSession } = await opener();
      const stats = await readStore(opts, async (store) => {
        const session = await existingSession(store, id, opts);
        const decision = beforeTurnDecision(session.estimate(), session.config.budget);
        return sessionStats(session, await session.history(), decision);
      });
      print(opts, stats, () => formatStats(stats));
    });

  common(program.command('export <session>'))
    .description('print the session as condense JSONL (every entry, pivots and pruning marks included)')
    .option(
      '--preset <name>',
      `records as the preset's system stores them (seed-000, seed-001: summary messages, their tool parts): ${PRESET_HELP}`,
    )
    .action(async (id: string, opts: CommonOptions & { preset?: string }) => {
      const preset = opts.preset === undefined ? undefined : presetChoice(opts.preset);
      const shape = preset === 'seed-000' || preset === 'seed-001' ? preset : undefined;
      const text = await readStore(opts, async (store) => {
        await requireSession(store, id, opts);
        const record = (await store.getSession(id))!;
        return exportJsonl(record, await store.loadFrom(id, 0), shape);
      });
      process.stdout.write(text);
    });

  common(program.command('context <session>'))
    .description('print the JSON that would be sent to the model (read-only: nothing is pruned or compacted)')
    .option('--format <format>', CONTEXT_FORMATS.join(' | '), 'ai-sdk')
    .option('--system <text>', 'system prompt to put first')
    .option('--preset <name>', `summary layout of a preset: ${PRESET_HELP}`)
    .action(async (id: string, opts: ModelOptions & { format: string; system?: string }) => {
      const format = oneOf(opts.format, CONTEXT_FORMATS, '--format');
      const [{ existingSession }, { renderContext }] = await Promise.all([
        opener(),
        import('../context/index.js'),
      ]);
      const payload = await readStore(opts, async (store) => {
        const session = await existingSession(store, id, opts);
        return renderContext(session.activeEntries(), {
          format,
          system: opts.system ?? session.config.system,
          summaryAs: session.config.compaction.summaryAs,
          prunedPlaceholder: session.config.prune?.placeholder,
        });
      });
      process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
    });
}
