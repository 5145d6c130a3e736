import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import type { OpenAIChatMessage } from '../../src/context/serialize/openai.js';
import { syntheticSession } from '../../src/demo/synthetic.js';
import { MESSAGE_FRAMING, realCounter } from '../../src/eval/real-count.js';
import type { Message } from '../../src/model/message.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

/**
 * A long coding history touching thousands of distinct files, run through the agent loop as a user
 * meets it (append, then prepare() before each model call, default options) in a small, a medium
 * and a large window: every request fits the window, compaction does not come back every turn, and
 * no compaction fails for lack of progress — the summary's facts (files, commands) are bounded by
 * their share of the target however many there are.
 */
const ENTRIES = 15_000;
const PATHS = 3_000;

function history(): Message[] {
  return [...syntheticSession({ messages: ENTRIES, seed: 7, paths: PATHS, readLines: [3, 12] })];
}

/** The o200k count of one OpenAI chat message, cached per message object (the session extends its list in place). */
function requestCounter(count: (text: string) => number) {
  const cache = new WeakMap<object, number>();
  const one = (m: OpenAIChatMessage): number => {
    let n = cache.get(m);
    if (n !== undefined) return n;
    n = MESSAGE_FRAMING;
    if (typeof m.content === 'string') n += count(m.content);
    else if (Array.isArray(m.content)) n += count(JSON.stringify(m.content));
    for (const c of 'tool_calls' in m ? (m.tool_calls ?? []) : [])
      n += count(c.function.name) + count(c.function.arguments);
    cache.set(m, n);
    return n;
  };
  return (messages: readonly OpenAIChatMessage[]) => messages.reduce((a, m) => a + one(m), 0);
}

describe('a 15,000-entry coding history with thousands of distinct paths', () => {
  const messages = history();

  it.each([8_000, 32_000, 128_000])(
    'in a %i-token window: no request over the window, at most one compaction per 10 turns',
    async (window) => {
      const real = requestCounter(realCounter());
      const session = await openSession(memoryStore(), `long-${window}`, {
        model: 'unknown-8k',
        limits: { contextWindow: window, maxOutput: Math.floor(window / 8) },
      });
      const compactedAt: number[] = [];
      let largest = 0;
      let turn = 0;
      for (const message of messages) {
        if (message.role === 'user') {
          await session.append(message);
          continue;
        }
        // A model call: prepare the request, and record the reply with the usage a provider
        // counting with o200k would report.
        const prepared = await session.prepare({ format: 'openai' });
        turn++;
        if (prepared.compaction?.status === 'compacted') compactedAt.push(turn);
        const size = real(prepared.messages);
        largest = Math.max(largest, size);
        expect(size, `turn ${turn}: the request as counted by o200k`).toBeLessThanOrEqual(window);
        if (turn % 101 === 0 || prepared.compaction)
          expect(validate(prepared.messages, 'openai')).toEqual([]);
        await session.recordStep({ message, usage: { prompt_tokens: size, completion_tokens: 50 } });
      }
      expect(largest).toBeLessThanOrEqual(window);
      expect(compactedAt.length).toBeGreaterThan(0);
      // At most one compaction per 10 turns after the first, and never a run of them close together.
      const gaps = compactedAt.slice(1).map((t, i) => t - compactedAt[i]!);
      const after = turn - compactedAt[0]!;
      expect(
        gaps.length,
        `${gaps.length} compactions in the ${after} turns after the first`,
      ).toBeLessThanOrEqual(after / 10);
      expect(
        Math.min(...gaps, Number.POSITIVE_INFINITY),
        `turns between compactions: ${gaps.slice(0, 20)}`,
      ).toBeGreaterThanOrEqual(8);
    },
    600_000,
  );
});
