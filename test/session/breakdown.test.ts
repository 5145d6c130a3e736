import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/index.js';
import { breakdownBar, contextBreakdown } from '../../src/session/breakdown.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, say, toolCall, user } from './helpers.js';

const message = fc.oneof(
  fc.string({ minLength: 1, maxLength: 400 }).map((t): Message => user(t)),
  fc.string({ minLength: 1, maxLength: 400 }).map((t): Message => say(t)),
  fc
    .tuple(fc.constantFrom('read_file', 'bash', 'grep'), fc.string({ maxLength: 2_000 }))
    .map(([name, out]): Message => act(toolCall(name, { path: 'a.ts' }, out))),
);

describe('what fills the window', () => {
  it('the rows add up to the next-prompt figure exactly, whatever the log, ratio and reported size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.constantFrom(0, 32_768, 200_000),
        async (messages, ratio, tokens, contextWindow) => {
          const session = await openSession(memoryStore(), 's', { system: 'Be brief.' });
          await session.append(messages);
          const b = contextBreakdown({
            systemRaw: 3,
            toolsRaw: 10,
            entries: session.activeEntries(),
            estimate: { tokens, method: 'usage+delta', base: tokens, delta: 0, ratio },
            contextWindow,
            trigger: contextWindow ? contextWindow * 0.8 : null,
            usable: contextWindow ? contextWindow - 8_000 : null,
          });
          expect(b.rows.reduce((sum, r) => sum + r.tokens, 0)).toBe(tokens);
          for (const r of b.rows) expect(r.tokens).toBeGreaterThanOrEqual(0);
          if (contextWindow) expect(b.free).toBe(Math.max(0, contextWindow - tokens));
          expect(breakdownBar(b, 40)).toHaveLength(40);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('puts what the provider counted beyond the stored log in a row of its own', async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append([
      user('Fix the test'),
      act(toolCall('read_file', { path: 'a.ts' }, 'x'.repeat(4_000))),
    ]);
    const raw = session.activeEntries().reduce((sum, e) => sum + e.tokens, 0);
    const b = contextBreakdown({
      systemRaw: 0,
      toolsRaw: 0,
      entries: session.activeEntries(),
      estimate: { tokens: raw + 5_000, method: 'usage+delta', base: raw + 5_000, delta: 0, ratio: 1 },
      contextWindow: 100_000,
      trigger: 80_000,
      usable: 90_000,
    });
    expect(b.rows.map((r) => r.key)).toEqual(expect.arrayContaining(['user', 'tool-results', 'unstored']));
    expect(b.rows.at(-1)!.key).toBe('unstored');
    expect(b.rows.at(-1)!.tokens).toBe(5_000);
    expect(b.rows.find((r) => r.key === 'tool-results')!.byTool).toEqual([
      { name: 'read_file', tokens: expect.any(Number) },
    ]);
    expect(b.reservedForOutput).toBe(10_000);
    const bar = breakdownBar(b, 50);
    expect(bar[40]).toBe('|'); // the trigger at 80% of the window
  });
});
