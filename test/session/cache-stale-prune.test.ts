/**
 * The cost rule for the outputs of earlier turns: once the provider's cache has expired (an idle
 * gap past its lifetime) hiding them costs no cache write, so they go then and the session costs
 * less than never pruning; on a warm cache they stay while rewriting the prompt after them would
 * cost more than the reads saved. Whatever the gaps and sizes, the outputs of the protected
 * (newest) turns are never hidden.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImportedMessage, ImportedSession } from '../../src/import/types.js';
import type { Message, ToolPart } from '../../src/model/index.js';
import { startsPruneTurn } from '../../src/prune/index.js';
import { openSession } from '../../src/session/index.js';
import { simulate } from '../../src/simulate/index.js';
import { memoryStore } from '../../src/store/index.js';

const MINUTE = 60_000;
const MODEL = 'claude-sonnet-4-5';

const VOCABULARY =
  'river stone apple table window garden paper music water light green house money night point world place story'.split(
    ' ',
  );

/** `n` common words, about one o200k token each (repeated letters would compress). */
function words(n: number, seed: number): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(VOCABULARY[x % VOCABULARY.length]!);
  }
  return out.join(' ');
}

const userMsg = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const reply = (text: string): Message => ({ role: 'assistant', parts: [{ type: 'text', text }] });
let calls = 0;
const readFile = (path: string, tokens: number): Message => ({
  role: 'assistant',
  parts: [
    {
      type: 'tool',
      callId: `c${++calls}`,
      name: 'read',
      input: { path },
      state: 'completed',
      output: words(tokens, calls),
    },
  ],
});

/**
 * A first task that reads 30k tokens of files, then turns of discussion (long answers, no tools),
 * each a minute apart except `gapBeforeTurn3` before the third (the first turn it leaves behind).
 */
function transcript(gapBeforeTurn3: number): ImportedSession {
  const messages: ImportedMessage[] = [];
  let t = Date.UTC(2026, 0, 1);
  const add = (message: Message, step = 20_000) => {
    t += step;
    messages.push({ message, createdAt: t });
  };
  add(userMsg('Read the session tracker and explain it.'));
  add(readFile('src/tracker.ts', 15_000));
  add(readFile('src/store.ts', 15_000));
  add(reply(words(800, 1)));
  for (let turn = 2; turn <= 8; turn++) {
    add(userMsg(`Question ${turn} about the design.`), turn === 3 ? gapBeforeTurn3 : MINUTE);
    add(reply(words(10_000, turn)));
    add(reply(words(300, turn * 7)));
  }
  return { format: 'condense', messages, warnings: [] };
}

describe('hiding the outputs of earlier turns by what they cost in cache', () => {
  /** The replay's cost and the index of each request that hid outputs. */
  const replay = async (session: ImportedSession, policy: 'default' | 'none') => {
    const prunedAt: number[] = [];
    let n = 0;
    const r = await simulate(session, {
      window: 200_000,
      policy,
      model: MODEL,
      onRequest: (q) => {
        if (q.kind === 'request' && q.pruned > 0) prunedAt.push(n);
        if (q.kind === 'request') n++;
      },
    });
    return { ...r, prunedAt };
  };
  // Requests: the first task's three, then two a turn: the third turn's first is the sixth.
  const TURN_3 = 5;

  it('hides them when an idle gap has expired the cache, for less than never pruning', async () => {
    const idle = transcript(12 * MINUTE);
    const [cost, none] = [await replay(idle, 'default'), await replay(idle, 'none')];
    expect(cost.prunedAt).toEqual([TURN_3]);
    expect(cost.cost!).toBeLessThan(none.cost!);
    expect(cost.requestsOverWindow).toBe(0);
  }, 60_000);

  it('keeps them on a warm cache until the reads saved pay for writing the turns after them again', async () => {
    const busy = transcript(MINUTE);
    const [cost, none] = [await replay(busy, 'default'), await replay(busy, 'none')];
    // Not when the turn that leaves them behind begins (a young session, a long suffix to rewrite)…
    expect(cost.prunedAt).not.toContain(TURN_3);
    // …and when they do go, it is for less than keeping them.
    expect(cost.cost!).toBeLessThanOrEqual(none.cost!);
  }, 60_000);

  it('never hides an output of the protected turns, whatever the gaps and sizes', async () => {
    const step = fc.record({
      newTurn: fc.boolean(),
      tool: fc.integer({ min: 0, max: 30_000 }),
      text: fc.integer({ min: 0, max: 8_000 }),
      gap: fc.constantFrom(10_000, 2 * MINUTE, 6 * MINUTE, 70 * MINUTE),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        let clock = Date.UTC(2026, 0, 1);
        const session = await openSession(memoryStore(), 'p', {
          model: MODEL,
          limits: { contextWindow: 200_000 },
          now: () => clock,
        });
        await session.append(userMsg('Start.'));
        for (const s of steps) {
          clock += s.gap;
          if (s.newTurn) await session.append(userMsg('Next request.'));
          const prepared = await session.prepare({ format: 'anthropic' });
          const message: Message = s.tool > 0 ? readFile('f.ts', 0) : reply('ok');
          if (s.tool > 0) (message.parts[0] as ToolPart & { output: string }).output = 'x '.repeat(s.tool);
          if (s.text > 0) message.parts.push({ type: 'text', text: 'y '.repeat(s.text) });
          await session.recordStep({
            message,
            usage: { input_tokens: prepared.tokens.tokens, output_tokens: 10 },
          });
          expect(hiddenInProtectedTurns(session.activeEntries())).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

/** Tool parts of the newest two turns that carry a pruning mark. */
function hiddenInProtectedTurns(
  entries: ReturnType<Awaited<ReturnType<typeof openSession>>['activeEntries']>,
) {
  const out: string[] = [];
  let turns = 0;
  for (let i = entries.length - 1; i >= 0 && turns < 2; i--) {
    const e = entries[i]!;
    if (e.kind !== 'message') continue;
    for (const p of e.message.parts) if (p.type === 'tool' && p.compactedAt !== undefined) out.push(p.callId);
    if (startsPruneTurn(e.message, 'real')) turns++;
  }
  return out;
}
