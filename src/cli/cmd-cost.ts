import type { Command } from 'commander';
import { formatSessionCost, sessionCost } from '../cost/session-cost.js';
import { InputError } from '../model/errors.js';
import { type CommonOptions, int, oneOf, print, readStore, requireSession } from './io.js';
import { PRESET_HELP } from './presets.js';

interface SimulateFlags extends CommonOptions {
  window: string;
  policy: string;
  model?: string;
  preset?: string;
}

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

  common(program.command('simulate <transcript>'))
    .description(
      "replays a transcript's requests through a pruning and compaction policy (nothing is stored) and reports the cost, the prompt-cache hit share and the largest request",
    )
    .requiredOption('--window <n>', 'context window to replay in, in tokens')
    .option(
      '--policy <name>',
      'default | none (no pruning, compaction at overflow) | every-turn (hide on every turn all the default may hide)',
      'default',
    )
    .option('--model <id>', "model whose limits and prices apply (default: the transcript's)")
    .option('--preset <name>', `settings of a preset, under the policy: ${PRESET_HELP}`)
    .action(async (file: string, opts: SimulateFlags) => {
      const [{ importFile }, { simulate, POLICIES, formatSimulation }, { commandOptions }] =
        await Promise.all([
          import('../import/index.js'),
          import('../simulate/index.js'),
          import('./open.js'),
        ]);
      const policy = oneOf(opts.policy, POLICIES, '--policy');
      const window = int(opts.window, '--window');
      const parsed = await importFile(file);
      const session = Array.isArray(parsed) ? parsed[0] : parsed;
      if (!session) throw new InputError('no conversation found in the file', { file });
      const options = await commandOptions(opts, {});
      const result = await simulate(session, {
        window,
        policy,
        options,
        ...(opts.model ? { model: opts.model } : {}),
      });
      print(opts, result, () => formatSimulation(file, result));
    });
}
