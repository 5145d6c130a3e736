import { describe, expect, it } from 'vitest';
import type { MessageEntry } from '../../src/model/entry.js';
import { ConfigError } from '../../src/model/errors.js';
import type { FilePart, ToolPart } from '../../src/model/parts.js';
import {
  applyPrune,
  PRUNE_PLACEHOLDER,
  PRUNE_SEED_000,
  planPrune,
  prunedSavings,
  resolvePruneOptions,
  StalePrunePlanError,
  withUpdates,
} from '../../src/prune/index.js';
import { assistant, estimator, K, log, tool, user } from './helpers.js';

const image: FilePart = { type: 'file', mediaType: 'image/png', data: 'AAAA' };
const NOW = 1_700_000_000_000;

/** Old: a message with a completed part (with an image) and an errored one; then a 40k window. */
function history() {
  return log([
    user(),
    assistant(
      { type: 'text', text: 'looking' },
      tool(15 * K, { attachments: [image] }),
      tool(10 * K, { state: 'error' }),
    ),
    assistant(tool(40 * K)),
  ]);
}

function toolAt(entry: { message: { parts: unknown[] } }, i: number): ToolPart {
  return entry.message.parts[i] as ToolPart;
}

describe('applyPrune', () => {
  it("'hide' marks the parts and keeps the stored output and attachments", () => {
    const entries = history();
    const opts = resolvePruneOptions({ protectTurns: 0 });
    const plan = planPrune(entries, opts);
    const updates = applyPrune(entries, plan, opts, NOW, estimator);
    expect(updates.map((u) => u.entryId)).toEqual(['e1']);
    const [u] = updates;
    const before = entries[1] as MessageEntry;
    expect(u!.parts[0]).toBe(before.message.parts[0]);
    expect(u!.parts[1]).toEqual({ ...toolAt(before, 1), compactedAt: NOW });
    expect(u!.parts[2]).toEqual({ ...toolAt(before, 2), compactedAt: NOW });
    // Figures describe the view: the placeholder instead of 15k + an image and 10k.
    const placeholder = estimator.text(PRUNE_PLACEHOLDER);
    expect(u!.partTokens).toEqual([before.partTokens[0], placeholder, placeholder]);
    const saved = 15 * K + 1000 + 10 * K - 2 * placeholder;
    expect(u!.tokens).toBe(before.tokens - saved);
    expect(prunedSavings(updates, entries)).toBe(saved);
  });

  it("'erase' stores the placeholder as output or error and clears attachments (seed 000)", () => {
    const entries = history();
    const opts = resolvePruneOptions(PRUNE_SEED_000);
    const updates = applyPrune(entries, planPrune(entries, opts), opts, NOW, estimator);
    const [u] = updates;
    const done = u!.parts[1] as ToolPart;
    const failed = u!.parts[2] as ToolPart;
    expect(done).toMatchObject({ state: 'completed', output: PRUNE_PLACEHOLDER, compactedAt: NOW });
    expect('attachments' in done).toBe(false);
    expect(failed).toMatchObject({ state: 'error', error: PRUNE_PLACEHOLDER, compactedAt: NOW });
    expect(done.callId).toBe(toolAt(entries[1] as MessageEntry, 1).callId);
    // In erase mode the stored entry's figures equal a fresh estimate of the new message.
    const after = withUpdates(entries, updates)[1] as MessageEntry;
    expect(after.partTokens).toEqual(after.message.parts.map((p) => estimator.part(p)));
    expect(after.tokens).toBe(estimator.message(after.message));
  });

  it('returns nothing when the plan does not prune, and changes nothing on a second apply', () => {
    const opts = resolvePruneOptions({ protectTurns: 0 });
    const small = log([user(), assistant(tool(10 * K)), assistant(tool(40 * K))]);
    expect(applyPrune(small, planPrune(small, opts), opts, NOW, estimator)).toEqual([]);

    const entries = history();
    const plan = planPrune(entries, opts);
    const once = withUpdates(entries, applyPrune(entries, plan, opts, NOW, estimator));
    expect(applyPrune(once, plan, opts, NOW + 1, estimator)).toEqual([]);
    expect(planPrune(once, opts).marks).toEqual([]);
  });

  it('refuses a plan made from other entries', () => {
    const opts = resolvePruneOptions({ protectTurns: 0 });
    const entries = history();
    const plan = planPrune(entries, opts);
    expect(() => applyPrune(entries.slice(2), plan, opts, NOW, estimator)).toThrow(StalePrunePlanError);
    const wrongPart = { ...plan, marks: [{ entryId: 'e1', partIndex: 0, tokens: 1 }] };
    expect(() => applyPrune(entries, wrongPart, opts, NOW, estimator)).toThrow(/not a tool part/);
  });
});

describe('resolvePruneOptions', () => {
  it('fills the DESIGN defaults and lets undefined fall back to them', () => {
    const o = resolvePruneOptions({ protectTokens: undefined, minimumTokens: 5 });
    expect(o).toMatchObject({
      protectTokens: 40_000,
      minimumTokens: 5,
      protectTurns: 2,
      protectedTools: ['skill'],
      prunableStates: ['completed', 'error'],
      crossing: 'protect',
      onMarked: 'stop',
      onSummary: 'stop',
      minimumComparison: '>',
      mode: 'hide',
      placeholder: '[Old tool result content cleared]',
    });
  });

  it('rejects impossible numbers with a ConfigError naming the option', () => {
    expect(() => resolvePruneOptions({ protectTokens: -1 })).toThrow(ConfigError);
    expect(() => resolvePruneOptions({ minimumTokens: Number.NaN })).toThrow(/minimumTokens/);
    expect(() => resolvePruneOptions({ protectTurns: 1.5 })).toThrow(/protectTurns/);
  });
});
