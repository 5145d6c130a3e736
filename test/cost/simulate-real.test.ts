/**
 * `simulate` on the real Claude Code and Codex sessions at their models' windows, through the
 * shipped prepare(): every policy keeps every request inside the window, and the cost-aware
 * default never costs more than never pruning nor than pruning every turn. Where a session holds
 * outputs of earlier turns (a finished task's reads and runs) it is cheaper than both or than
 * never pruning; in the Codex log that idles for 50, 8 and 17 minutes those outputs go when the
 * cache has expired anyway.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../src/import/index.js';
import type { ImportedSession } from '../../src/import/types.js';
import { type SimulationResult, simulate } from '../../src/simulate/index.js';
import { lookupModel } from '../../src/tokens/models.js';

const DATA = new URL('../../../shared/data/agent-sessions/', import.meta.url).pathname;
const files = existsSync(DATA)
  ? ['claude-code', 'codex'].flatMap((d) =>
      readdirSync(join(DATA, d))
        .sort()
        .map((f) => join(DATA, d, f)),
    )
  : [];

const run = async (file: string, options = {}) => {
  const session = (await importFile(file)) as ImportedSession;
  // The second Codex log names no model: the one its sibling ran.
  const model = session.messages.findLast((m) => m.model !== undefined)?.model ?? 'gpt-5.5';
  const window = lookupModel(model).contextWindow;
  const out: Record<string, SimulationResult> = {};
  for (const policy of ['default', 'none', 'every-turn'] as const)
    out[policy] = await simulate(session, { window, policy, options, model });
  return { window, r: out };
};

describe.skipIf(files.length === 0)('simulate on the real sessions', () => {
  it('fits the window, and the default costs no more than never pruning nor pruning every turn', async () => {
    let cheaperThanBoth = 0;
    for (const file of files) {
      const { window, r } = await run(file);
      for (const x of Object.values(r)) {
        expect(x.requestsOverWindow).toBe(0);
        expect(x.largestRequest).toBeLessThanOrEqual(window);
      }
      expect(r.default!.cost!).toBeLessThanOrEqual(r.none!.cost!);
      expect(r.default!.cost!).toBeLessThanOrEqual(r['every-turn']!.cost!);
      if (r.default!.cost! < r.none!.cost! && r.default!.cost! < r['every-turn']!.cost!) cheaperThanBoth++;
    }
    // The two Claude Code sessions whose first task's outputs ride along for dozens of requests.
    expect(cheaperThanBoth).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('prunes the earlier turns of an idle Codex session when its cache has expired, for a third less', async () => {
    const file = files.find((f) => f.includes('019e1695'));
    if (!file) return;
    const { r } = await run(file);
    expect(r.default!.prunes).toBeGreaterThan(0);
    expect(r.default!.cost!).toBeLessThan(r.none!.cost! * 0.7);
  }, 60_000);

  it('with a 10k protect window and no protected turn, prunes in paying batches: cheaper than never and than every turn', async () => {
    const file = files.find((f) => f.includes('019e1625'));
    if (!file) return;
    const { r } = await run(file, { prune: { protectTokens: 10_000, protectTurns: 0, minimumTokens: 0 } });
    expect(r.default!.prunes).toBeGreaterThan(0);
    expect(r.default!.prunes).toBeLessThanOrEqual(r['every-turn']!.prunes);
    expect(r.default!.cost!).toBeLessThan(r.none!.cost!);
    expect(r.default!.cost!).toBeLessThan(r['every-turn']!.cost!);
    expect(r.default!.cacheHitShareBetweenCompactions).toBeGreaterThanOrEqual(0.9);
    expect(r.default!.requestsOverWindow).toBe(0);
  }, 60_000);
});
