import type { Command } from 'commander';
import type { Lineage, Turn } from '../lineage/index.js';
import type { ForkMode } from '../session/fork.js';
import type { Store } from '../store/store.js';
import { oneOf, print, readStore, withStore } from './io.js';
import type { ModelOptions } from './open.js';
import { PRESET_HELP } from './presets.js';

const FORK_MODES: readonly ForkMode[] = ['summary', 'full', 'exact'];

/** The session layer loads only when a command runs (see presets.ts). */
const opener = () => import('./open.js');
const formatter = () => import('./lineage-format.js');

async function lineageOf(store: Store, id: string, opts: ModelOptions): Promise<Lineage> {
  const { existingSession } = await opener();
  return (await existingSession(store, id, opts)).lineage();
}

/** A turn named by its id or by its `#n` / `n` in `condense history`. */
export function findTurn(lineage: Lineage, ref: string): Turn {
  const turns = lineage.turns();
  const byId = turns.find((t) => t.id === ref);
  if (byId) return byId;
  const n = /^#?(\d+)$/.exec(ref)?.[1];
  if (n !== undefined && Number(n) >= 1 && Number(n) <= turns.length) return turns[Number(n) - 1]!;
  return lineage.turn(ref); // throws UnknownTurnError naming the session
}

export function registerLineage(program: Command, common: (c: Command) => Command): void {
  common(program.command('history <session>'))
    .description("the session's turns, root to head, compactions included")
    .option('--turn <id>', 'root to this turn only (a turn id, or its #n)')
    .option('--preset <name>', PRESET_HELP)
    .action(async (id: string, opts: ModelOptions & { turn?: string }) => {
      const { historyTable } = await formatter();
      await readStore(opts, async (store) => {
        const lineage = await lineageOf(store, id, opts);
        const head = opts.turn === undefined ? lineage.head() : findTurn(lineage, opts.turn);
        const turns = head ? lineage.getFullHistory(head.id) : [];
        print(opts, turns, () =>
          turns.length === 0 ? `session ${id} has no turns` : historyTable(turns, lineage),
        );
      });
    });

  common(program.command('tree <session>'))
    .description('turns, compactions (◆), forks (⑂) and the head of a session')
    .option('--preset <name>', PRESET_HELP)
    .action(async (id: string, opts: ModelOptions) => {
      const { forksOf, treeText } = await formatter();
      await readStore(opts, async (store) => {
        const lineage = await lineageOf(store, id, opts);
        const forks = forksOf(id, await store.listSessions(), lineage);
        const from = (await store.getSession(id))?.metadata.forkedFrom;
        const origin =
          from && typeof from === 'object' && !Array.isArray(from)
            ? `forked from ${String(from.session)}`
            : null;
        const value = { session: id, head: lineage.head()?.id ?? null, turns: lineage.turns(), forks };
        print(opts, value, () => treeText(id, lineage, forks, origin));
      });
    });

  common(program.command('fork <session>'))
    .description('start a new session from a turn (the source is never changed)')
    .requiredOption('--at <turn>', 'the turn to fork after (a turn id, or its #n in `condense history`)')
    .option('--mode <mode>', `${FORK_MODES.join(' | ')} (default: the preset's, else exact)`)
    .option('--as <id>', 'id of the new session (default: SESSION-fork-N)')
    .option('--preset <name>', PRESET_HELP)
    .action(async (id: string, opts: ModelOptions & { at: string; mode?: string; as?: string }) => {
      const mode = opts.mode === undefined ? undefined : oneOf(opts.mode, FORK_MODES, '--mode');
      const { existingSession } = await opener();
      await withStore(opts, async (store) => {
        const session = await existingSession(store, id, opts);
        const turn = findTurn(await session.lineage(), opts.at);
        const newId = opts.as ?? (await freeForkId(store, id));
        const atEntry = turn.entryIds.at(-1)!;
        const fork = await session.fork(newId, { at: atEntry, ...(mode ? { mode } : {}) });
        const used = (fork.record.metadata.forkedFrom as { mode: ForkMode }).mode;
        const turns = (await fork.turns()).length;
        const result = { session: newId, from: id, atTurn: turn.id, atEntry, mode: used, turns };
        print(
          opts,
          result,
          () => `forked ${id} after turn ${turn.id} into ${newId} (${used}, ${turns} turns)`,
        );
      });
    });
}

async function freeForkId(store: Store, id: string): Promise<string> {
  for (let n = 1; ; n++) if (!(await store.getSession(`${id}-fork-${n}`))) return `${id}-fork-${n}`;
}
