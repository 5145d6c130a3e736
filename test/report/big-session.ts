/**
 * A long session made the way an agent makes one: synthetic coding-agent messages (requests, file
 * reads, test runs, edits) driven through a real Session, so condense itself prunes and compacts
 * along the way. The summaries come from condense's LLM summarizer on a mock model (the AI SDK's
 * MockLanguageModelV3) that answers like one: a few lines, quoting the latest requests of the
 * transcript it was sent. Two requests in three report a usage (the local estimate scaled as a
 * provider's tokenizer would count it, plus a fixed overhead); the third is left to the estimate,
 * so the report shows both bases.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { llmSummarizer } from '../../src/compact/llm.js';
import { syntheticSession } from '../../src/demo/synthetic.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import type { Store } from '../../src/store/store.js';

export interface BigSessionOptions {
  id: string;
  entries: number;
  seed?: number;
  /** The session's options (default BIG_SESSION_OPTIONS): a report must be made with the same. */
  options?: SessionOptions;
}

/** The text of every prompt message, as the mock model reads it. */
function promptText(options: LanguageModelV3CallOptions): string {
  return options.prompt
    .flatMap((m) =>
      typeof m.content === 'string' ? [m.content] : m.content.flatMap((p) => ('text' in p ? [p.text] : [])),
    )
    .join('\n');
}

/** A summarizing model's answer: the task, the last requests it saw quoted, the next step. */
const summarizingModel = new MockLanguageModelV3({
  doGenerate: async (options) => {
    const asks = promptText(options)
      .split('\n')
      .filter((line) => line.startsWith('User: '))
      .slice(-4)
      .map((line) => `- "${line.slice('User: '.length).trim()}"`);
    const text = [
      'The user is working through a list of coding requests in a TypeScript service.',
      'Latest requests:',
      ...asks,
      'Next step: run the test suite and report what still fails.',
    ].join('\n');
    return {
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1_000, noCache: 1_000, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 80, text: 80, reasoning: 0 },
      },
      warnings: [],
    };
  },
});

/** The model and window the session runs under: a report must be made with the same. */
export const BIG_SESSION_OPTIONS = {
  model: 'report-synthetic',
  limits: { contextWindow: 200_000, maxOutput: 8_000 },
  system: 'You are a careful coding agent working in a TypeScript repository.',
  compaction: { summarizer: llmSummarizer({ model: summarizingModel, contextWindow: 1_000_000 }) },
} satisfies SessionOptions;

export async function writeBigSession(store: Store, opts: BigSessionOptions): Promise<void> {
  let clock = Date.UTC(2026, 0, 5, 9, 0, 0);
  const options = opts.options ?? BIG_SESSION_OPTIONS;
  const session = await openSession(store, opts.id, { ...options, now: () => (clock += 1_000) });
  let request = 0;
  for (const message of syntheticSession({ messages: opts.entries, seed: opts.seed ?? 7 })) {
    if (message.role !== 'assistant') {
      await session.append(message);
      continue;
    }
    await session.prepare();
    request++;
    // What a provider would count for the prompt just prepared: its tokenizer's ratio to the
    // local estimate times what was sent, plus framing the agent does not declare.
    const sent = session.record.state.activeTokens + session.overheadRaw;
    const usage =
      request % 3 === 0 ? undefined : { inputTokens: Math.round(sent * 1.25) + 1_500, outputTokens: 80 };
    await session.recordStep({ message, ...(usage ? { usage } : {}) });
  }
}
