import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMessageEntry } from '../../src/model/build.js';
import type { Entry } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import {
  applyPrune,
  PRUNE_SEED_000,
  PRUNE_SEED_001,
  planPrune,
  type ResolvedPruneOptions,
  resolvePruneOptions,
  shouldPlanPrune,
  withUpdates,
} from '../../src/prune/index.js';
import { assistant, estimator, tool, user } from './helpers.js';

interface PruneEvent {
  turn: number;
  outputSoFar: number;
  marked: number;
}

/**
 * 200 turns, each a user message and an assistant message adding tool output, with the session's
 * O(1) running total maintained as a store-backed session would. `gated` consults shouldPlanPrune
 * first; otherwise the planner runs every turn.
 */
function simulate(turns: Message[][], opts: ResolvedPruneOptions, gated: boolean) {
  let entries: Entry[] = [];
  let unpruned = 0;
  let outputSoFar = 0;
  let plans = 0;
  const events: PruneEvent[] = [];
  turns.forEach((messages, turn) => {
    for (const message of messages) {
      const seq = entries.length;
      const place = {
        sessionId: 's',
        seq,
        parentId: entries.at(-1)?.id ?? null,
        id: `e${seq}`,
        createdAt: seq,
      };
      const entry = buildMessageEntry(message, place, estimator);
      const added = entry.partTokens.reduce((a, b) => a + b, 0);
      unpruned += added;
      outputSoFar += added;
      entries.push(entry);
    }
    if (gated && !shouldPlanPrune(unpruned, opts)) return;
    plans++;
    const plan = planPrune(entries, opts);
    if (!plan.prune) return;
    entries = withUpdates(entries, applyPrune(entries, plan, opts, turn, estimator));
    unpruned -= plan.prunableTokens;
    events.push({ turn, outputSoFar, marked: plan.prunableTokens });
  });
  return { events, plans, marks: markedParts(entries) };
}

/** Where the marks are and when they were set: what the prompt prefix depends on. */
function markedParts(entries: Entry[]): string[] {
  return entries.flatMap((e) =>
    e.kind === 'message'
      ? e.message.parts.flatMap((p, i) =>
          p.type === 'tool' && p.compactedAt !== undefined ? [`${e.id}#${i}@${p.compactedAt}`] : [],
        )
      : [],
  );
}

function turnsOf(sizes: number[][]): Message[][] {
  return sizes.map((turn) => [user(), assistant(...turn.map((n) => tool(n)))]);
}

const turnsArb = fc.array(
  fc.array(
    fc.oneof(
      { weight: 9, arbitrary: fc.integer({ min: 50, max: 6_000 }) },
      fc.integer({ min: 6_000, max: 50_000 }),
    ),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  { minLength: 200, maxLength: 200 },
);

const presets: [string, ResolvedPruneOptions][] = [
  ['defaults', resolvePruneOptions()],
  ['seed 000', resolvePruneOptions(PRUNE_SEED_000)],
  ['seed 001', resolvePruneOptions(PRUNE_SEED_001)],
];

describe('pruning happens in batches (TESTING item 12)', () => {
  for (const [name, opts] of presets) {
    it(`${name}: at most one prune per minimumTokens of new output, and the gate changes no outcome`, () => {
      fc.assert(
        fc.property(turnsArb, (sizes) => {
          const turns = turnsOf(sizes);
          const gated = simulate(turns, opts, true);
          const everyTurn = simulate(turns, opts, false);
          // The marked set changes only at the same turns whether or not the gate is consulted.
          expect(gated.events).toEqual(everyTurn.events);
          expect(gated.marks).toEqual(everyTurn.marks);
          expect(gated.events.length).toBeGreaterThan(0);
          gated.events.forEach((event, k) => {
            expect(event.marked).toBeGreaterThan(opts.minimumTokens);
            // The (k+1)-th prune needs more than (k+1) × minimumTokens of output in total.
            expect(event.outputSoFar).toBeGreaterThan((k + 1) * opts.minimumTokens);
          });
        }),
        { numRuns: 8 },
      );
    });
  }

  it('defaults: small steady output prunes once per batch, and the planner runs far less than every turn', () => {
    const turns = turnsOf(Array.from({ length: 200 }, () => [1_000, 1_000]));
    const { events, plans } = simulate(turns, resolvePruneOptions(), true);
    // 2,000 tokens a turn: a batch needs > 20,000 of new output, i.e. 11 turns.
    const gaps = events.slice(1).map((e, i) => e.turn - events[i]!.turn);
    expect(gaps.every((g) => g >= 11)).toBe(true);
    expect(events.length).toBeLessThanOrEqual(Math.floor((200 * 2_000) / 20_000));
    expect(events.length).toBeGreaterThanOrEqual(15);
    expect(plans).toBeLessThan(200 / 2);
  });
});
