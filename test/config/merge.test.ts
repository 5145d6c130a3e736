/**
 * mergeOptions is the precedence chain (flags over file over preset over defaults): whatever the
 * two layers hold, a setting the upper layer names wins and every other setting survives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeOptions } from '../../src/config/index.js';
import type { SessionOptions } from '../../src/session/index.js';

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const tokens = fc.integer({ min: 0, max: 1_000_000 });

const layer: fc.Arbitrary<SessionOptions> = fc.record(
  {
    model: fc.constantFrom('gpt-4o', 'claude-sonnet-4-5', 'local'),
    estimator: fc.constantFrom('heuristic' as const, 'exact' as const),
    limits: fc.record({ contextWindow: maybe(tokens), maxOutput: maybe(tokens) }),
    budget: fc.record({
      threshold: maybe(fc.double({ min: 0, max: 1, noNaN: true })),
      absolute: maybe(tokens),
      auto: maybe(fc.boolean()),
    }),
    checks: fc.record({ afterStep: maybe(fc.boolean()), countOutput: maybe(fc.boolean()) }),
    prune: fc.oneof(
      fc.constant(false as const),
      fc.record({
        protectTokens: maybe(tokens),
        mode: maybe(fc.constantFrom('hide' as const, 'erase' as const)),
      }),
    ),
    compaction: fc.record({
      summaryTokens: maybe(tokens),
      plan: maybe(fc.record({ keepTokens: maybe(tokens), keepNone: maybe(fc.boolean()) })),
    }),
  },
  { requiredKeys: [] },
);

type Group = Record<string, unknown> | undefined;

/** What one setting becomes: the upper layer's when it names it, else the lower one's. */
const expected = (lower: Group, upper: Group, key: string) => upper?.[key] ?? lower?.[key];

describe('mergeOptions', () => {
  it('each setting of each group: the upper layer’s if named, else the lower layer’s', () => {
    fc.assert(
      fc.property(layer, layer, (lower, upper) => {
        const merged = mergeOptions(lower, upper);
        for (const key of ['model', 'estimator'] as const) expect(merged[key]).toBe(upper[key] ?? lower[key]);
        for (const group of ['limits', 'budget', 'checks'] as const) {
          const keys = new Set([...Object.keys(lower[group] ?? {}), ...Object.keys(upper[group] ?? {})]);
          for (const key of keys)
            expect((merged[group] as Group)?.[key]).toBe(
              expected(lower[group] as Group, upper[group] as Group, key),
            );
        }
        const plan = (o: SessionOptions) => o.compaction?.plan as Group;
        for (const key of ['keepTokens', 'keepNone'])
          expect(plan(merged)?.[key]).toBe(expected(plan(lower), plan(upper), key));
        expect(merged.compaction?.summaryTokens).toBe(
          upper.compaction?.summaryTokens ?? lower.compaction?.summaryTokens,
        );
      }),
    );
  });

  it('prune: false above turns pruning off; settings above a false turn it on with just those', () => {
    fc.assert(
      fc.property(layer, layer, (lower, upper) => {
        const merged = mergeOptions(lower, upper);
        if (upper.prune === false) expect(merged.prune).toBe(false);
        else if (upper.prune === undefined) expect(merged.prune).toEqual(lower.prune);
        else if (lower.prune === false || lower.prune === undefined)
          expect(merged.prune).toEqual(upper.prune);
        else
          for (const key of ['protectTokens', 'mode'])
            expect((merged.prune as Group)?.[key]).toBe(
              expected(lower.prune as Group, upper.prune as Group, key),
            );
      }),
    );
  });

  it('an empty upper layer changes nothing, and neither layer is modified', () => {
    fc.assert(
      fc.property(layer, layer, (lower, upper) => {
        const before = structuredClone([lower, upper]);
        expect(mergeOptions(lower, {})).toEqual(lower);
        mergeOptions(lower, upper);
        expect([lower, upper]).toEqual(before);
      }),
    );
  });
});
