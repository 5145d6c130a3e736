import { renderContext, splitAiSdkSystem } from '../context/index.js';
import type { CompactionEntry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import type { CompactionOutcome } from './commit.js';
import { appendWrite } from './entries.js';
import type { StepContext } from './step-context.js';
import { viewOptions } from './summary-input.js';

/** opencode's synthetic message, off by default. */
export const CONTINUE_MESSAGE = 'Continue if you have next steps';

/** After the pivot is written: what follows may fail without undoing or misreporting it. */
export async function finishCompaction(
  session: StepContext,
  pivot: CompactionEntry,
  done: { auto: boolean; summary: string; tokensBefore: number; tokensAfter: number; started: number },
): Promise<CompactionOutcome> {
  const { config } = session;
  const after = async (what: string, step: () => unknown) => {
    try {
      await step();
    } catch (error) {
      session.events.emit('warning', { message: `${what} failed after a successful compaction`, error });
    }
  };
  if (done.auto && config.compaction.continueMessage)
    await after('the continue message', () => appendContinue(session));
  await after('the token recount', () => recount(session));
  const millis = Date.now() - done.started;
  const { tokensBefore, tokensAfter, summary } = done;
  session.events.emit('compaction:end', { pivot, tokensBefore, tokensAfter, millis });
  await after('the afterCompact hook', () => config.hooks.afterCompact?.(pivot));
  return { status: 'compacted', pivot, summary, tokensBefore, tokensAfter, millis };
}

async function appendContinue(session: StepContext): Promise<void> {
  const setting = session.config.compaction.continueMessage;
  const text = typeof setting === 'string' ? setting : CONTINUE_MESSAGE;
  const message: Message = {
    role: 'user',
    parts: [{ type: 'text', text, synthetic: true }],
    metadata: { synthetic: true },
  };
  await session.log.mutate(appendWrite([message], session.config));
}

/** After compaction the provider's last count is stale: use its count endpoint if one is configured. */
async function recount(session: StepContext): Promise<void> {
  const { countTokens } = session.config.compaction;
  if (!countTokens) return;
  // Count exactly what prepare() would send next.
  const payload = renderContext(session.log.active, {
    ...viewOptions(session.config),
    format: 'ai-sdk',
    system: session.sentContext.system,
  });
  const tokens = await countTokens({ ...splitAiSdkSystem(payload), tools: session.sentContext.tools });
  if (tokens === undefined || !Number.isFinite(tokens)) return;
  await session.log.mutate((record) => ({
    append: [],
    state: {
      ...record.state,
      lastUsage: {
        usage: { inputTotal: tokens, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
        model: session.config.model,
        afterSeq: record.nextSeq,
      },
      addedSinceUsage: 0,
    },
  }));
}
