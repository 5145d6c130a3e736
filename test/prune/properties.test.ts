import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import {
  appendsKeepPlan,
  applyPrune,
  PruneScope,
  planPrune,
  planPruneScan,
  shouldPlanPrune,
  withUpdates,
} from '../../src/prune/index.js';
import { historyArb, optionsArb } from './arbitraries.js';
import { estimator, marked } from './helpers.js';
import { eligible, isSummaryEntry, protectedFrom, referencePlan, scanStart } from './oracle.js';

const NOW = 42;
const runs = { numRuns: 500 };

/** The session's running total: every finished, unmarked tool output in the entries. */
function unprunedToolTokens(entries: readonly Entry[]): number {
  let total = 0;
  for (const e of entries) {
    if (e.kind !== 'message') continue;
    e.message.parts.forEach((p, i) => {
      if (
        p.type === 'tool' &&
        p.compactedAt === undefined &&
        (p.state === 'completed' || p.state === 'error')
      ) {
        total += e.partTokens[i] ?? 0;
      }
    });
  }
  return total;
}

describe('planPrune over random histories', () => {
  it('agrees with the multi-pass reference reading', () => {
    fc.assert(
      fc.property(historyArb, optionsArb, (entries, opts) => {
        const plan = planPrune(entries, opts);
        const ref = referencePlan(entries, opts);
        expect(marked(plan)).toEqual(ref.marks);
        expect(plan.prune).toBe(ref.prune);
        expect(plan.protectedTokens).toBe(ref.protectedTokens);
        expect(plan.prunableTokens).toBe(ref.prunableTokens);
      }),
      runs,
    );
  });

  it('never touches what it must protect', () => {
    fc.assert(
      fc.property(historyArb, optionsArb, (entries, opts) => {
        const plan = planPrune(entries, opts);
        if (plan.marks.length === 0) return;
        const byId = new Map(entries.map((e, i) => [e.id, i]));
        const from = protectedFrom(entries, opts);
        for (const m of plan.marks) {
          const index = byId.get(m.entryId)!;
          const entry = entries[index]!;
          if (entry.kind !== 'message') throw new Error('marked a compaction entry');
          expect(isSummaryEntry(entry)).toBe(false);
          expect(eligible(entry.message.parts[m.partIndex]!, entry, opts)).toBe(true);
          expect(index).toBeLessThan(from);
          expect(index).toBeGreaterThanOrEqual(scanStart(entries, opts));
        }
        // The eligible output newer than the newest mark fills the protect window.
        const newest = plan.marks.at(-1)!;
        const newestIndex = byId.get(newest.entryId)!;
        let window = 0;
        entries.forEach((e, i) => {
          if (e.kind !== 'message' || isSummaryEntry(e) || i < newestIndex || i >= from) return;
          e.message.parts.forEach((p, j) => {
            const newer = i > newestIndex || j > newest.partIndex;
            if (newer && eligible(p, e, opts)) window += e.partTokens[j] ?? 0;
          });
        });
        if (opts.crossing === 'protect') expect(window).toBeGreaterThanOrEqual(opts.protectTokens);
        else expect(window + newest.tokens).toBeGreaterThan(opts.protectTokens);
        expect(plan.prunableTokens).toBe(plan.marks.reduce((s, x) => s + x.tokens, 0));
      }),
      runs,
    );
  });

  it('pruning twice equals pruning once', () => {
    fc.assert(
      fc.property(historyArb, optionsArb, (entries, opts) => {
        const once = withUpdates(
          entries,
          applyPrune(entries, planPrune(entries, opts), opts, NOW, estimator),
        );
        const again = planPrune(once, opts);
        expect(again.marks).toEqual([]);
        const twice = withUpdates(once, applyPrune(once, again, opts, NOW + 1, estimator));
        expect(twice).toEqual(once);
      }),
      runs,
    );
  });

  it('apply changes only the marked parts, and only by marking or clearing them', () => {
    fc.assert(
      fc.property(historyArb, optionsArb, (entries, opts) => {
        const plan = planPrune(entries, opts);
        const updates = applyPrune(entries, plan, opts, NOW, estimator);
        const markedSet = new Set(marked(plan));
        expect(new Set(updates.map((u) => u.entryId))).toEqual(new Set(plan.marks.map((m) => m.entryId)));
        for (const u of updates) {
          const entry = entries.find((e) => e.id === u.entryId)!;
          if (entry.kind !== 'message') throw new Error('update of a compaction entry');
          expect(u.parts).toHaveLength(entry.message.parts.length);
          u.parts.forEach((p, i) => {
            const old = entry.message.parts[i]!;
            if (!markedSet.has(`${u.entryId}#${i}`)) {
              expect(p).toBe(old);
              return;
            }
            if (p.type !== 'tool' || old.type !== 'tool') throw new Error('not a tool part');
            expect(p.compactedAt).toBe(NOW);
            expect({ ...p, compactedAt: undefined, output: 0, error: 0, attachments: 0 }).toEqual({
              ...old,
              compactedAt: undefined,
              output: 0,
              error: 0,
              attachments: 0,
            });
            if (opts.mode === 'hide') expect({ ...p, compactedAt: old.compactedAt }).toEqual(old);
          });
        }
      }),
      runs,
    );
  });

  it('the O(1) gate never hides a prune the planner would make', () => {
    fc.assert(
      fc.property(historyArb, optionsArb, (entries, opts) => {
        if (planPrune(entries, opts).prune)
          expect(shouldPlanPrune(unprunedToolTokens(entries), opts)).toBe(true);
      }),
      runs,
    );
  });
});

describe('a plan kept while only appends follow', () => {
  it('is the plan a new scan of the longer window makes, whenever appendsKeepPlan says it holds', () => {
    let held = 0;
    fc.assert(
      fc.property(historyArb, optionsArb, fc.nat(), (entries, opts, cut) => {
        // Mostly a few entries appended, as between two turns; sometimes many.
        const k = cut % 4 === 0 ? 1 + (cut % (entries.length - 1)) : entries.length - 1 - (cut % 4);
        const appended = entries.slice(k);
        if (!appendsKeepPlan(appended, opts)) return;
        held++;
        const scan = (list: readonly Entry[]) => planPruneScan(new PruneScope(list).newestFirst(), opts);
        expect(scan(entries)).toEqual(scan(entries.slice(0, k)));
      }),
      { numRuns: 3_000 },
    );
    // Enough of the random splits are appends the plan survives to say something (about 470).
    expect(held).toBeGreaterThan(300);
  });
});
