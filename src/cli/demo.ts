import type { Command } from 'commander';
import { beforeTurnDecision } from '../budget/index.js';
import { syntheticSession } from '../demo/synthetic.js';
import { type CommonOptions, int, print, withStore } from './io.js';
import { formatStats, sessionStats } from './stats.js';

interface DemoOptions extends CommonOptions {
  messages: string;
  window: string;
}

const SYSTEM = 'You are a careful coding agent. Use the tools to read, edit and test the project.';

/**
 * Replays a generated coding session through condense with a small window, as an agent would:
 * prepare → (model call) → recordStep. The "model" reports usage the way a real one counts
 * (about 2.8 characters per token of the request it was sent), so calibration has work to do.
 */
export async function runDemo(opts: DemoOptions, log: (line: string) => void) {
  const contextWindow = int(opts.window, '--window');
  const messageCount = int(opts.messages, '--messages');
  // Loaded on use, so that commands which never open a session start faster.
  const { openSession } = await import('../session/index.js');
  return withStore(opts, async (store) => {
    await store.deleteSession('demo');
    const session = await openSession(store, 'demo', {
      model: 'demo-model',
      limits: { contextWindow, maxOutput: 4_000 },
      system: SYSTEM,
      prune: {
        protectTokens: Math.floor(contextWindow / 8),
        minimumTokens: Math.floor(contextWindow / 16),
        protectTurns: 1,
      },
      compaction: { plan: { keepTokens: Math.floor(contextWindow / 5) } },
    });
    session.on('prune', (e) => log(`  prune: cleared ${e.parts} old tool outputs (${e.tokensSaved} tokens)`));
    session.on('overflow', (e) =>
      log(`  overflow after a step: ${e.decision.tokens} > ${e.decision.limit} tokens, compaction queued`),
    );
    session.on('compaction:end', (e) =>
      log(
        `  compaction: ${e.tokensBefore} → ${e.tokensAfter} tokens in ${e.millis} ms (pivot ${e.pivot.id.slice(0, 8)})`,
      ),
    );
    let turns = 0;
    for (const message of syntheticSession({ messages: messageCount, seed: 7 })) {
      if (message.role === 'user') {
        turns++;
        log(`turn ${turns}: ${message.parts[0]?.type === 'text' ? message.parts[0].text : ''}`);
        await session.append(message);
        continue;
      }
      const { messages } = await session.prepare({ format: 'openai' });
      const inputTotal = Math.ceil(JSON.stringify(messages).length / 2.8);
      await session.recordStep({ message, usage: { prompt_tokens: inputTotal, completion_tokens: 120 } });
    }
    const final = await session.prepare({ format: 'openai' });
    const stats = sessionStats(
      session,
      await session.history(),
      beforeTurnDecision(session.estimate(), session.config.budget),
    );
    return { stats, context: final.messages as { role: string; content: unknown }[] };
  });
}

export function registerDemo(program: Command, common: (c: Command) => Command): void {
  common(program.command('demo'))
    .description(
      'run a generated coding session through a small window: pruning, compaction, the context after',
    )
    .option('--messages <n>', 'messages to replay', '300')
    .option('--window <tokens>', 'context window of the demo model', '64000')
    .action(async (opts: DemoOptions) => {
      const lines: string[] = [];
      const result = await runDemo(opts, (line) => (opts.json ? lines.push(line) : console.log(line)));
      print(opts, { ...result, log: lines }, () => {
        const preview = result.context.map((m) => {
          const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
          return `  ${m.role.padEnd(9)} ${text.replace(/\s+/g, ' ').slice(0, 100)}`;
        });
        return [
          '',
          formatStats(result.stats),
          '',
          `context sent next (${result.context.length} messages):`,
          ...preview.slice(0, 12),
          preview.length > 12 ? `  … ${preview.length - 12} more` : '',
        ].join('\n');
      });
    });
}
