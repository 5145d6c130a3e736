/**
 * `simulate` on a real Codex session at its model's window, through the shipped prepare(): every
 * policy keeps every request inside the window; the cost-aware default never costs more than
 * pruning on every turn nor than never pruning; the cache-hit share between compactions is ≥ 90%.
 * With thresholds that leave outputs prunable, the default prunes in batches that pay: cheaper
 * than never pruning and than pruning every turn.
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../src/import/index.js';
import type { ImportedSession } from '../../src/import/types.js';
import { type SimulationResult, simulate } from '../../src/simulate/index.js';

const DIR = new URL('../../../shared/data/agent-sessions/codex/', import.meta.url).pathname;
const file = existsSync(DIR) ? readdirSync(DIR).sort()[0] : undefined;
const WINDOW = 1_050_000; // gpt-5.5

describe.skipIf(file === undefined)('simulate on a real Codex session', () => {
  const run = async (options = {}) => {
    const session = (await importFile(DIR + file!)) as ImportedSession;
    const out: Record<string, SimulationResult> = {};
    for (const policy of ['default', 'none', 'every-turn'] as const)
      out[policy] = await simulate(session, { window: WINDOW, policy, options });
    return out;
  };

  it('fits the window, reads ≥ 90% from the cache, and the default costs no more than the others', async () => {
    const r = await run();
    for (const x of Object.values(r)) {
      expect(x.requestsOverWindow).toBe(0);
      expect(x.largestRequest).toBeLessThanOrEqual(WINDOW);
      expect(x.cacheHitShareBetweenCompactions).toBeGreaterThanOrEqual(0.9);
      expect(x.requests).toBe(66);
    }
    expect(r.default!.cost!).toBeLessThanOrEqual(r.none!.cost!);
    expect(r.default!.cost!).toBeLessThanOrEqual(r['every-turn']!.cost!);
  }, 60_000);

  it('with a 10k protect window, prunes in paying batches: cheaper than never and than every turn', async () => {
    const r = await run({ prune: { protectTokens: 10_000, protectTurns: 0, minimumTokens: 0 } });
    expect(r.default!.prunes).toBeGreaterThan(0);
    expect(r.default!.prunes).toBeLessThan(r['every-turn']!.prunes);
    expect(r.default!.cost!).toBeLessThan(r.none!.cost!);
    expect(r.default!.cost!).toBeLessThan(r['every-turn']!.cost!);
    expect(r.default!.cacheHitShareBetweenCompactions).toBeGreaterThanOrEqual(0.9);
    expect(r.default!.requestsOverWindow).toBe(0);
  }, 60_000);
});
