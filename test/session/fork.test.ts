import { describe, expect, it } from 'vitest';
import { renderContext, validate } from '../../src/context/index.js';
import { messageText } from '../../src/model/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { turn, user } from './helpers.js';

const options = { model: 'm', limits: { contextWindow: 30_000, maxOutput: 2_000 }, prune: false as const };

async function compactedSession() {
  const store = memoryStore();
  const session = await openSession(store, 'src', options);
  for (let i = 1; i <= 5; i++) await session.append(turn(`turn ${i} request`, 2, 8_000, `t${i}`));
  await session.compact();
  await session.append(user('turn 6 request'));
  return { store, session };
}

const texts = (entries: { kind: string; message?: unknown }[]) =>
  entries.flatMap((e) => (e.kind === 'message' ? [messageText(e.message as never)] : []));

describe('fork (seed 002 smart forking)', () => {
  it('exact: the fork sees what the model saw at the fork point; the source is unchanged', async () => {
    const { store, session } = await compactedSession();
    const before = JSON.stringify(await store.loadFrom('src', 0));
    const fork = await session.fork('f1');
    expect(JSON.stringify(await store.loadFrom('src', 0))).toBe(before);
    const src = JSON.stringify(await session.prepare({ format: 'openai' }));
    const forked = JSON.stringify(await fork.prepare({ format: 'openai' }));
    expect(forked).toBe(src);
    expect(fork.record.metadata).toMatchObject({ forkedFrom: { session: 'src', mode: 'exact' } });
    // No history from before the pivot leaks into the fork's view (TESTING item 11).
    const { messages } = await fork.prepare({ format: 'openai' });
    const userTexts = (messages as { role: string; content: unknown }[])
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(userTexts).not.toContain('turn 1 request');
    expect(userTexts).toContain('turn 6 request');
  });

  it('full: the original turns up to a summarized fork point, verbatim, without pivots', async () => {
    const { session } = await compactedSession();
    const log = await session.history();
    const turn2 = log.find((e) => e.kind === 'message' && messageText(e.message) === 'turn 2 request')!;
    const fork = await session.fork('f2', { at: turn2.id, mode: 'full' });
    const forkLog = await fork.history();
    expect(forkLog.every((e) => e.kind === 'message')).toBe(true);
    expect(texts(forkLog).filter((t) => /^turn \d request$/.test(t))).toEqual([
      'turn 1 request',
      'turn 2 request',
    ]);
    const payload = renderContext(fork.activeEntries(), { format: 'anthropic' });
    expect(validate(payload, 'anthropic')).toEqual([]);
  });

  it('summary: a summarized fork point starts from the compaction that summarized it', async () => {
    const { session } = await compactedSession();
    const log = await session.history();
    const pivot = log.find((e) => e.kind === 'compaction')!;
    const turn1 = log.find((e) => e.kind === 'message' && messageText(e.message) === 'turn 1 request')!;
    const fork = await session.fork('f3', { at: turn1.id, mode: 'summary' });
    const forkLog = await fork.history();
    // The history up to the fork point stays (traversable), then the fork's own pivot with that summary.
    expect(forkLog.map((e) => e.id)).toStrictEqual([turn1.id, expect.any(String)]);
    expect(forkLog[1]!.id).not.toBe(pivot.id);
    const seeded = forkLog[1]!;
    if (seeded.kind !== 'compaction' || pivot.kind !== 'compaction') throw new Error('no pivot');
    expect(seeded.pivot).toMatchObject({
      summary: pivot.pivot.summary,
      summarizedThroughId: turn1.id,
      firstKeptId: null,
      previousPivotId: null,
      details: {
        extra: {
          forkedFromCompaction: { id: pivot.id, summarizedThroughId: pivot.pivot.summarizedThroughId },
        },
      },
    });
    await fork.append(user('a different turn 2'));
    const { messages } = await fork.prepare({ format: 'openai' });
    const sent = JSON.stringify(messages);
    expect(sent).toContain(
      pivot.kind === 'compaction' ? pivot.pivot.summary.slice(0, 40).replace(/"/g, '\\"') : '',
    );
    expect(sent).toContain('a different turn 2');
    expect(sent).not.toContain('turn 6 request');
  });
});
