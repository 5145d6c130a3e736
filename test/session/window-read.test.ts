import { describe, expect, it } from 'vitest';
import { emptySessionState } from '../../src/model/session.js';
import { readTail } from '../../src/session/window-read.js';
import { memoryStore } from '../../src/store/index.js';
import { pagesForward } from '../../src/store/pages.js';
import type { Store } from '../../src/store/store.js';
import { commitAfter, entryAt } from '../store/fixtures.js';

const SEQS = [0, 1, 2, 5, 999, 1_000, 5_000, 5_001, 200_000, 200_001, 1_000_000];

/** A session whose seqs have gaps (imports and forks may leave some), and a count of reads. */
async function gappy(): Promise<{ store: Store; reads: () => number }> {
  const inner = memoryStore();
  const record = { id: 's', createdAt: 1, updatedAt: 1, headId: null, version: 0, nextSeq: 0, metadata: {} };
  const entries = SEQS.map((seq) => entryAt('s', seq, `x${seq}`));
  await inner.createSession(
    { ...record, state: emptySessionState() },
    {
      entries,
      commit: commitAfter({ ...record, state: emptySessionState() }, entries),
    },
  );
  let reads = 0;
  const store = new Proxy(inner, {
    get: (target, key: keyof Store) =>
      key === 'loadFrom'
        ? (...args: Parameters<Store['loadFrom']>) => {
            reads++;
            return target.loadFrom(...args);
          }
        : target[key],
  });
  return { store, reads: () => reads };
}

describe('reading a window a page at a time', () => {
  it('pagesForward yields every entry once, in order, in few reads however sparse the seqs', async () => {
    const { store, reads } = await gappy();
    const seen: number[] = [];
    for await (const page of pagesForward(store, 's', 0, 1_000_001)) for (const e of page) seen.push(e.seq);
    expect(seen).toEqual(SEQS);
    // Sparse ranges double the page: about log2(1,000,000 / 1,000) reads per gap, not one per seq.
    expect(reads()).toBeLessThan(60);
  });

  it('readTail returns the newest entries holding the tokens asked for, and where they start', async () => {
    const { store } = await gappy();
    const perEntry = entryAt('s', 0, 'x').tokens;
    const tail = await readTail(store, 's', { fromSeq: 0, toSeq: 1_000_001 }, 3 * perEntry, perEntry);
    expect(tail.entries.map((e) => e.seq).slice(-3)).toEqual([200_000, 200_001, 1_000_000]);
    expect(tail.entries.every((e) => e.seq >= tail.fromSeq)).toBe(true);
    const all = await readTail(
      store,
      's',
      { fromSeq: 0, toSeq: 1_000_001 },
      Number.POSITIVE_INFINITY,
      perEntry,
    );
    expect(all.entries.map((e) => e.seq)).toEqual(SEQS);
    expect(all.fromSeq).toBe(0);
  });
});
