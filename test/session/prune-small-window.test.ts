/**
 * The default pruning thresholds scale with the window: in a 32k window an agent that reads files
 * turn after turn has its old tool outputs hidden before the window fills and compacts. (With the
 * seeds' absolute 40,000 protected, nothing in a 32k window is ever pruned.)
 */
import { describe, expect, it } from 'vitest';
import { scaledPruneThresholds } from '../../src/prune/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, say, toolRun, user } from '../presets/support.js';

async function run(options: Parameters<typeof openSession>[2]) {
  const session = await openSession(memoryStore(), 's', options);
  const events: string[] = [];
  session.on('prune', () => events.push('prune'));
  session.on('compaction:start', () => events.push('compaction'));
  for (let n = 1; n <= 40 && !events.includes('compaction'); n++) {
    await session.append(user(`Request ${n}: look at src/module${n}.ts`));
    await session.prepare();
    await session.append([
      act(toolRun('read_file', { path: `src/module${n}.ts` }, 1_500)),
      say(`Done ${n}.`),
    ]);
  }
  return { session, events };
}

describe('default pruning in a small window', () => {
  it('in a 32k window with the default options, old tool outputs are pruned before any compaction', async () => {
    const { session, events } = await run({ model: 'qwen3:8b', limits: { contextWindow: 32_768 } });
    expect(session.config.prune).toMatchObject(scaledPruneThresholds(session.config.budget.usable));
    expect(events[0]).toBe('prune');
    // Pruning kept the window down for many turns: the agent ran all 40 without compacting, or
    // compacted only after pruning more than once.
    expect(events.filter((e) => e === 'prune').length).toBeGreaterThan(1);
  });

  it("the seeds' absolute thresholds, given as options, never prune in that window", async () => {
    const { events } = await run({
      model: 'qwen3:8b',
      limits: { contextWindow: 32_768 },
      prune: { protectTokens: 40_000, minimumTokens: 20_000 },
    });
    expect(events).toEqual(['compaction']);
  });

  it('come to about the seeds’ values in a 200k window, and to them when unlimited', () => {
    expect(scaledPruneThresholds(168_000)).toEqual({ protectTokens: 42_000, minimumTokens: 21_000 });
    expect(scaledPruneThresholds(null)).toEqual({ protectTokens: 40_000, minimumTokens: 20_000 });
  });
});
