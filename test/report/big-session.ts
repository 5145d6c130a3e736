/**
 * A long session made the way an agent makes one: synthetic coding-agent messages (requests, file
 * reads, test runs, edits) driven through a real Session on a small window, so condense itself
 * prunes and compacts along the way (extractive summarizer, no model). Two requests in three
 * report a usage (the local estimate scaled as a provider's tokenizer would count it, plus a fixed
 * overhead); the third is left to the estimate, so the report shows both bases.
 */
import { syntheticSession } from '../../src/demo/synthetic.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import type { Store } from '../../src/store/store.js';

export interface BigSessionOptions {
  id: string;
  entries: number;
  seed?: number;
}

/** The model and window the session runs under: a report must be made with the same. */
export const BIG_SESSION_OPTIONS = {
  model: 'report-synthetic',
  limits: { contextWindow: 200_000, maxOutput: 8_000 },
  system: 'You are a careful coding agent working in a TypeScript repository.',
} satisfies SessionOptions;

export async function writeBigSession(store: Store, opts: BigSessionOptions): Promise<void> {
  let clock = Date.UTC(2026, 0, 5, 9, 0, 0);
  const session = await openSession(store, opts.id, { ...BIG_SESSION_OPTIONS, now: () => (clock += 1_000) });
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
