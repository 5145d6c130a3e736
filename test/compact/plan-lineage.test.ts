import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNothingToCompact, type PlanOptions, planCompaction } from '../../src/compact/plan.js';
import { activeWindow, isMarkerOnly } from '../../src/compact/turns.js';
import { isMessageEntry, type MessageEntry } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import { assistant, marker, TestLog, tool, user } from './helpers.js';

/** A turn: a user message (or none: a continuing turn), then steps of given sizes, maybe a marker. */
const turnArb = fc.record({
  opener: fc.boolean(),
  steps: fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 0, maxLength: 12 }),
  openerTokens: fc.integer({ min: 1, max: 5_000 }),
  marker: fc.boolean(),
});
const optionsArb: fc.Arbitrary<PlanOptions> = fc.record({
  keepTurns: fc.integer({ min: 1, max: 4 }),
  keepTokens: fc.integer({ min: 1_000, max: 60_000 }),
  minKeepLatestTurn: fc.boolean(),
  keepNone: fc.boolean(),
});

type Turn = { opener: boolean; steps: number[]; openerTokens: number; marker: boolean };

function appendTurns(log: TestLog, turns: Turn[]): void {
  for (const t of turns) {
    const messages: Message[] = [];
    const tokens: number[] = [];
    if (t.opener) messages.push(user(`request ${log.all.length}`));
    if (t.opener) tokens.push(t.openerTokens);
    for (const size of t.steps) {
      messages.push(assistant('step', tool('bash', { command: 'ls' })));
      tokens.push(size);
    }
    if (t.marker) messages.push(marker());
    if (t.marker) tokens.push(1);
    log.append(messages, tokens);
  }
}

describe('lineage over k consecutive compactions (TESTING.md item 11)', () => {
  it('summarized ∪ kept = all message entries, no gap, no duplicate', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(turnArb, { minLength: 1, maxLength: 6 }), optionsArb), {
          minLength: 1,
          maxLength: 6,
        }),
        (rounds) => {
          const log = new TestLog();
          const summarized: string[] = [];
          let kept: string[] = [];
          for (const [turns, options] of rounds) {
            appendTurns(log, turns);
            const window = activeWindow(log.all);
            const expected = window.filter(isMessageEntry).filter((e) => !isMarkerOnly(e));
            const plan = planCompaction(log.all, options);
            if (isNothingToCompact(plan)) continue;
            // The plan partitions the current view, in order.
            expect([...plan.toSummarize, ...plan.toKeep]).toEqual(expected);
            expect(plan.summarizedThroughId).toBe(plan.toSummarize.at(-1)!.id);
            expect(plan.firstKeptId).toBe(plan.toKeep[0]?.id ?? null);
            // Nothing summarized twice: the window starts after everything summarized before.
            for (const e of plan.toSummarize) expect(summarized).not.toContain(e.id);
            summarized.push(...plan.toSummarize.map((e) => e.id));
            kept = plan.toKeep.map((e) => e.id);
            const tail = plan.toKeep;
            if (!options.keepNone && tail.length > 1) {
              expect(plan.predictedTailTokens).toBeLessThanOrEqual(options.keepTokens!);
            }
            log.pivot(plan, `summary ${log.all.length}`);
          }
          const all = log.all
            .filter(isMessageEntry)
            .filter((e: MessageEntry) => !isMarkerOnly(e))
            .map((e) => e.id);
          const lastPivotAt = log.all.findLastIndex((e) => e.kind === 'compaction');
          const after = log.all
            .slice(lastPivotAt + 1)
            .filter(isMessageEntry)
            .filter((e) => !isMarkerOnly(e))
            .map((e) => e.id);
          const covered = [...summarized, ...kept.filter((id) => !after.includes(id)), ...after];
          expect(covered.sort()).toEqual([...all].sort());
          expect(new Set(covered).size).toBe(covered.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
