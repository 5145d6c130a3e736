import { describe, expect, it } from 'vitest';
import { FloorTooLargeError } from '../../src/compact/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { say, turn, user } from './helpers.js';

describe('the floor (TESTING item 4)', () => {
  it('a latest request larger than the budget fails once with FloorTooLargeError naming the floor', async () => {
    const store = memoryStore();
    const session = await openSession(store, 's', {
      model: 'm',
      limits: { contextWindow: 10_000, maxOutput: 1_000 },
      prune: false,
    });
    await session.append(turn('old work', 3, 4_000));
    const [request] = await session.append(user(`Please apply this spec: ${'word '.repeat(9_000)}`));
    await session.append(say('ok'));
    const error = await session.compact().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FloorTooLargeError);
    expect((error as FloorTooLargeError).floorTokens).toBeGreaterThan(8_000);
    expect((error as Error).message).toMatch(/floor/);
    // prepare() does not retry the same failed compaction, nor hand out a request that cannot fit:
    // the latest request alone is over the budget, and named.
    let started = 0;
    session.on('compaction:start', () => started++);
    const refused = await session.prepare({ format: 'openai' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FloorTooLargeError);
    expect((refused as FloorTooLargeError).largest?.entryId).toBe(request!.id);
    expect(started).toBe(0);
    expect((await store.loadFrom('s', 0)).some((e) => e.kind === 'compaction')).toBe(false);
  });
});
