import type { Command } from 'commander';
import { beforeTurnDecision } from '../budget/index.js';
import type { ContextFormat } from '../context/index.js';
import { exportJsonl } from '../import/index.js';
import { openSession } from '../session/index.js';
import type { Store } from '../store/store.js';
import { type CommonOptions, int, print, table, withStore } from './io.js';
import { formatStats, sessionStats } from './stats.js';

export interface ModelOptions extends CommonOptions {
  model?: string;
  contextWindow?: string;
}

export async function existingSession(store: Store, id: string, opts: ModelOptions) {
  if (!(await store.getSession(id))) throw new Error(`no session '${id}' in ${opts.db ?? 'the database'}`);
  const limits = opts.contextWindow
    ? { contextWindow: int(opts.contextWindow, '--context-window') }
    : undefined;
  return openSession(store, id, { model: opts.model, limits });
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
    .action(async (id: string, opts: ModelOptions) => {
      const stats = await withStore(opts, async (store) => {
        const session = await existingSession(store, id, opts);
        const decision = beforeTurnDecision(session.estimate(), session.config.budget);
        return sessionStats(session, await session.history(), decision);
      });
      print(opts, stats, () => formatStats(stats));
    });

  common(program.command('export <session>'))
    .description('print the session as condense JSONL')
    .action(async (id: string, opts: CommonOptions) => {
      const text = await withStore(opts, async (store) => {
        const record = await store.getSession(id);
        if (!record) throw new Error(`no session '${id}'`);
        return exportJsonl(record, await store.loadFrom(id, 0));
      });
      process.stdout.write(text);
    });

  common(program.command('context <session>'))
    .description('print the JSON that would be sent to the model')
    .option('--format <format>', 'ai-sdk | openai | anthropic | gemini', 'ai-sdk')
    .option('--system <text>', 'system prompt to include')
    .action(async (id: string, opts: CommonOptions & { format: ContextFormat; system?: string }) => {
      const payload = await withStore(opts, async (store) => {
        const session = await existingSession(store, id, {});
        const { renderContext } = await import('../context/index.js');
        return renderContext(session.activeEntries(), { format: opts.format, system: opts.system });
      });
      process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
    });
}
