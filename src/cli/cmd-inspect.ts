import type { Command } from 'commander';
import { beforeTurnDecision } from '../budget/index.js';
import { type ContextFormat, renderContext } from '../context/index.js';
import { exportJsonl } from '../import/index.js';
import { openSession, PRESET_NAMES, type PresetName, presetOptions } from '../session/index.js';
import type { Store } from '../store/store.js';
import { type CommonOptions, int, oneOf, print, requireSession, table, withStore } from './io.js';
import { formatStats, sessionStats } from './stats.js';

export interface ModelOptions extends CommonOptions {
  model?: string;
  contextWindow?: string;
  preset?: string;
}

export const CONTEXT_FORMATS: readonly ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];

/**
 * Opens a session that must already exist, for reading: the preset's budget and layout and the
 * named model's limits apply, but pruning is off so that opening (seed 000 prunes on open) writes nothing.
 */
export async function existingSession(store: Store, id: string, opts: ModelOptions) {
  const preset = opts.preset ? presetOptions(oneOf<PresetName>(opts.preset, PRESET_NAMES, '--preset')) : {};
  const limits = opts.contextWindow
    ? { contextWindow: int(opts.contextWindow, '--context-window') }
    : preset.limits;
  await requireSession(store, id, opts);
  return openSession(store, id, { ...preset, model: opts.model ?? preset.model, limits, prune: false });
}

export function registerInspect(program: Command, common: (c: Command) => Command): void {
  common(program.command('sessions'))
    .description('list sessions')
    .action(async (opts: CommonOptions) => {
      const rows = await withStore(opts, (store) => store.listSessions());
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
    .description('tokens by role and by tool, the usable budget, and the compaction decision')
    .option('--model <id>', 'model whose limits apply')
    .option('--context-window <n>', 'context window instead of the model registry')
    .option('--preset <name>', `budget of a preset: ${PRESET_NAMES.join(' | ')}`)
    .action(async (id: string, opts: ModelOptions) => {
      const stats = await withStore(opts, async (store) => {
        const session = await existingSession(store, id, opts);
        const decision = beforeTurnDecision(session.estimate(), session.config.budget);
        return sessionStats(session, await session.history(), decision);
      });
      print(opts, stats, () => formatStats(stats));
    });

  common(program.command('export <session>'))
    .description('print the session as condense JSONL (every entry, pivots and pruning marks included)')
    .action(async (id: string, opts: CommonOptions) => {
      const text = await withStore(opts, async (store) => {
        await requireSession(store, id, opts);
        const record = (await store.getSession(id))!;
        return exportJsonl(record, await store.loadFrom(id, 0));
      });
      process.stdout.write(text);
    });

  common(program.command('context <session>'))
    .description('print the JSON that would be sent to the model (read-only: nothing is pruned or compacted)')
    .option('--format <format>', CONTEXT_FORMATS.join(' | '), 'ai-sdk')
    .option('--system <text>', 'system prompt to put first')
    .option('--preset <name>', `summary layout of a preset: ${PRESET_NAMES.join(' | ')}`)
    .action(async (id: string, opts: ModelOptions & { format: string; system?: string }) => {
      const format = oneOf(opts.format, CONTEXT_FORMATS, '--format');
      const payload = await withStore(opts, async (store) => {
        const session = await existingSession(store, id, opts);
        return renderContext(session.activeEntries(), {
          format,
          system: opts.system,
          summaryAs: session.config.compaction.summaryAs,
        });
      });
      process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
    });
}
