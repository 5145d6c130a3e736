/**
 * Found by the real-data replays (SWE-agent trajectories in a tight window): a queued marker whose
 * compaction fails (here FloorTooLargeError: the latest request, which every summary repeats,
 * is alone bigger than the budget) was retried by every prepare(), each time running the summarizer again and throwing, so
 * the agent could never get a context: the compaction loop of TESTING.md item 4 by the marker
 * path. The before-turn path already failed once per log state; the marker path now does too.
 * Needs no data.
 */
import { describe, expect, it } from 'vitest';
import { FloorTooLargeError } from '../../src/compact/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

async function stuckSession() {
  const session = await openSession(memoryStore(), 'stuck', {
    limits: { contextWindow: 2_000, maxOutput: 200 },
    budget: { threshold: 0 },
    prune: false,
  });
  let summaries = 0;
  // Attempts that got past the floor check end in one of these two events.
  session.on('compaction:error', () => summaries++);
  session.on('compaction:end', () => summaries++);
  // The latest request is kept verbatim by any summary: it alone is most of the window.
  await session.append({ role: 'user', parts: [{ type: 'text', text: `Please do: ${'x'.repeat(4_000)}` }] });
  const step = await session.recordStep({
    message: { role: 'assistant', parts: [{ type: 'text', text: 'ok '.repeat(300) }] },
    usage: { input_tokens: 2_500, output_tokens: 10 },
  });
  expect(step.markerId).not.toBeNull();
  return { session, summaries: () => summaries };
}

describe('a marker whose compaction cannot make progress', () => {
  it('fails once, then prepare() returns the context without summarizing again', async () => {
    const { session, summaries } = await stuckSession();
    await expect(session.prepare()).rejects.toBeInstanceOf(FloorTooLargeError);
    expect(summaries()).toBe(1);
    for (let i = 0; i < 3; i++) {
      const prepared = await session.prepare();
      expect(prepared.compaction).toBeNull();
      expect(prepared.decision.compact).toBe(true); // still over budget, and the caller can see it
      expect(Array.isArray(prepared.messages)).toBe(true);
    }
    expect(summaries()).toBe(1);
    // The marker stays queued; a small change does not make the same failure worth repeating…
    expect(session.record.state.pendingMarkerId).not.toBeNull();
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'and one more thing' }] });
    await session.prepare().catch(() => null);
    expect(summaries()).toBe(1);
    // …but once the context has grown by a quarter of the budget, it is tried again (once).
    await session.append({ role: 'assistant', parts: [{ type: 'text', text: 'z'.repeat(4_000) }] });
    await session.prepare().catch(() => null);
    expect(summaries()).toBe(2);
  });
});
