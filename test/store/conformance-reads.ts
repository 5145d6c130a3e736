import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import { DuplicateSessionError } from '../../src/store/errors.js';
import { PAGE_TOKENS, pagesForward } from '../../src/store/pages.js';
import type { Store } from '../../src/store/store.js';
import type { StoreHandle } from './conformance.js';
import { commitAfter, entryAt, fatEntry, sessionRecord, textEntries } from './fixtures.js';

/**
 * A new session `id` holding one entry at each of `seqs`, appended in two batches split at `cut`
 * (by default one batch); the second batch may go back in seq.
 */
async function storedAt(store: Store, id: string, seqs: readonly number[], cut = seqs.length) {
  const record = sessionRecord(id);
  await store.createSession(record);
  const entries = seqs.map((seq) => entryAt(id, seq, `${id}-x${seq}`));
  const first = entries.slice(0, cut);
  const after = await store.append(first, commitAfter(record, first));
  const rest = entries.slice(cut);
  if (rest.length > 0) await store.append(rest, commitAfter(after, rest));
  return { id, entries };
}

/** The entries with fromSeq <= seq < toSeq in seq order: what a read of that range returns. */
function inRange(entries: readonly Entry[], fromSeq: number, toSeq: number): Entry[] {
  return entries.filter((e) => e.seq >= fromSeq && e.seq < toSeq).sort((a, b) => a.seq - b.seq);
}

/** The pages of a streamed range (Store.loadPages where the store has it). */
async function streamed(store: Store, id: string, fromSeq: number, toSeq: number): Promise<Entry[][]> {
  const pages: Entry[][] = [];
  for await (const page of pagesForward(store, id, fromSeq, toSeq)) pages.push(page);
  return pages;
}

/** Sessions, append and the read paths (loadFrom bounds and order, getEntry, listing, delete). */
export function readConformance(h: StoreHandle): void {
  describe('sessions', () => {
    it('creates and gets a session; an unknown id is undefined', async () => {
      const record = sessionRecord('s1');
      await h.store().createSession(record);
      expect(await h.store().getSession('s1')).toStrictEqual(record);
      expect(await h.store().getSession('nope')).toBeUndefined();
    });

    it('refuses to create a session twice and keeps the first', async () => {
      await h.store().createSession(sessionRecord('s1'));
      const other = { ...sessionRecord('s1'), metadata: { title: 'other' } };
      await expect(h.store().createSession(other)).rejects.toBeInstanceOf(DuplicateSessionError);
      expect((await h.store().getSession('s1'))?.metadata).toStrictEqual({ title: 'session s1' });
    });

    it('lists sessions oldest first with the figures their state keeps', async () => {
      expect(await h.store().listSessions()).toStrictEqual([]);
      await h.store().createSession(sessionRecord('b', 2000));
      await h.store().createSession(sessionRecord('c', 1000));
      await h.store().createSession(sessionRecord('a', 2000));
      const entries = textEntries('a', 3);
      const after = await h.store().append(entries, commitAfter(sessionRecord('a', 2000), entries));
      const list = await h.store().listSessions();
      expect(list.map((s) => s.id)).toStrictEqual(['c', 'a', 'b']);
      expect(list[1]).toStrictEqual({
        id: 'a',
        createdAt: 2000,
        updatedAt: after.updatedAt,
        entryCount: 3,
        totalTokens: after.state.totalTokens,
        activeTokens: after.state.activeTokens,
        metadata: { title: 'session a' },
      });
      expect(after.state.totalTokens).toBeGreaterThan(0);
    });

    it('deletes a session and its entries, and nothing of other sessions', async () => {
      for (const id of ['s1', 's2']) {
        await h.store().createSession(sessionRecord(id));
        const entries = textEntries(id, 4);
        await h.store().append(entries, commitAfter(sessionRecord(id), entries));
      }
      await h.store().deleteSession('s1');
      await h.store().deleteSession('never-existed');
      expect(await h.store().getSession('s1')).toBeUndefined();
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual([]);
      expect(await h.store().getEntry('s1', 's1-e0')).toBeUndefined();
      expect((await h.store().listSessions()).map((s) => s.id)).toStrictEqual(['s2']);
      expect(await h.store().loadFrom('s2', 0)).toStrictEqual(textEntries('s2', 4));
      // The id is free again: a new session under it starts empty.
      await h.store().createSession(sessionRecord('s1'));
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual([]);
    });
  });

  describe('append and reads', () => {
    it('append returns the committed record, one version up, and getSession agrees', async () => {
      const record = sessionRecord('s1');
      await h.store().createSession(record);
      const entries = textEntries('s1', 2);
      const commit = { ...commitAfter(record, entries), metadata: { title: 'renamed', n: 1 } };
      const before = Date.now();
      const after = await h.store().append(entries, commit);
      expect(after).toMatchObject({
        id: 's1',
        version: 1,
        headId: 's1-e1',
        nextSeq: 2,
        createdAt: record.createdAt,
      });
      expect(after.state).toStrictEqual(commit.state);
      expect(after.metadata).toStrictEqual({ title: 'renamed', n: 1 });
      expect(after.updatedAt).toBeGreaterThanOrEqual(before);
      expect(await h.store().getSession('s1')).toStrictEqual(after);
      // A commit without metadata keeps what is stored.
      const next = await h.store().append([], commitAfter(after));
      expect(next.metadata).toStrictEqual({ title: 'renamed', n: 1 });
      expect(next.version).toBe(2);
    });

    it('loadFrom returns entries with seq >= fromSeq in seq order, across appends and sessions', async () => {
      const record = sessionRecord('s1');
      await h.store().createSession(record);
      await h.store().createSession(sessionRecord('s2'));
      const first = textEntries('s1', 5);
      const r1 = await h.store().append(first, commitAfter(record, first));
      const second = textEntries('s1', 5, 5);
      await h.store().append(second, commitAfter(r1, second));
      const other = textEntries('s2', 3);
      await h.store().append(other, commitAfter(sessionRecord('s2'), other));
      const all = [...first, ...second];
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual(all);
      expect(await h.store().loadFrom('s1', 7)).toStrictEqual(all.slice(7));
      expect(await h.store().loadFrom('s1', 9)).toStrictEqual(all.slice(9));
      expect(await h.store().loadFrom('s1', 10)).toStrictEqual([]);
      expect(await h.store().loadFrom('s1', -5)).toStrictEqual(all);
      expect(await h.store().loadFrom('unknown', 0)).toStrictEqual([]);
    });

    it('loadFrom handles gaps and out-of-order appends by seq, not by insertion', async () => {
      const record = sessionRecord('s1');
      await h.store().createSession(record);
      const batch = [entryAt('s1', 10, 'x10'), entryAt('s1', 4, 'x4'), entryAt('s1', 7, 'x7')];
      const r1 = await h.store().append(batch, commitAfter(record, batch));
      await h.store().append([entryAt('s1', 2, 'x2')], commitAfter(r1, [entryAt('s1', 2, 'x2')]));
      const seqs = async (from: number) => (await h.store().loadFrom('s1', from)).map((e) => e.seq);
      expect(await seqs(0)).toStrictEqual([2, 4, 7, 10]);
      expect(await seqs(5)).toStrictEqual([7, 10]);
      expect(await seqs(7)).toStrictEqual([7, 10]);
      expect(await seqs(11)).toStrictEqual([]);
    });

    it('loadFrom(n) is exactly the stored entries with seq >= n, for any batching (property)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 5 }),
          fc.integer({ min: -1, max: 32 }),
          async (batchSizes, fromSeq) => {
            const id = `p${run++}`;
            let record = sessionRecord(id);
            await h.store().createSession(record);
            const appended = [];
            for (const size of batchSizes) {
              const batch = textEntries(id, size, record.nextSeq);
              record = await h.store().append(batch, commitAfter(record, batch));
              appended.push(...batch);
            }
            const loaded = await h.store().loadFrom(id, fromSeq);
            expect(loaded).toStrictEqual(appended.filter((e) => e.seq >= fromSeq));
          },
        ),
        { numRuns: 40 },
      );
    });

    it('loadFrom(n, m) is exactly the stored entries with n <= seq < m, gaps included (property)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 12 }),
          fc.integer({ min: -1, max: 32 }),
          fc.integer({ min: -1, max: 32 }),
          async (seqs, fromSeq, toSeq) => {
            const stored = await storedAt(h.store(), `r${run++}`, seqs);
            const loaded = await h.store().loadFrom(stored.id, fromSeq, toSeq);
            expect(loaded).toStrictEqual(inRange(stored.entries, fromSeq, toSeq));
          },
        ),
        { numRuns: 40 },
      );
    });

    it('a range streamed a page at a time is its stored entries, each once, in seq order (property)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 30 }),
          fc.integer({ min: -1, max: 3_001 }),
          fc.integer({ min: -1, max: 3_001 }),
          fc.nat(),
          async (seqs, fromSeq, toSeq, cut) => {
            // Two appends, the second may go back in seq: a file's lines out of seq order.
            const stored = await storedAt(h.store(), `p${run++}`, seqs, cut % seqs.length);
            const pages = await streamed(h.store(), stored.id, fromSeq, toSeq);
            expect(pages.every((page) => page.length > 0)).toBe(true);
            expect(pages.flat()).toStrictEqual(inRange(stored.entries, fromSeq, toSeq));
          },
        ),
        { numRuns: 30 },
      );
    });

    it('a window of fat entries streams in pages of about PAGE_TOKENS tokens, not one page', async () => {
      const record = sessionRecord('fat');
      await h.store().createSession(record);
      const stored = Array.from({ length: 60 }, (_, seq) => fatEntry('fat', seq));
      // The newer half appended first: a file's lines out of seq order.
      const newer = stored.slice(30);
      const after = await h.store().append(newer, commitAfter(record, newer));
      const older = stored.slice(0, 30);
      await h.store().append(older, commitAfter(after, older));
      const pages = await streamed(h.store(), 'fat', 0, 60);
      expect(pages.flat()).toStrictEqual(stored);
      const tokens = (page: readonly Entry[]) => page.reduce((sum, e) => sum + e.tokens, 0);
      expect(stored[0]!.tokens * 60).toBeGreaterThan(10 * PAGE_TOKENS);
      expect(pages.length).toBeGreaterThan(5);
      // The first page is read before the window's density is known.
      for (const page of pages.slice(1)) expect(tokens(page)).toBeLessThanOrEqual(2 * PAGE_TOKENS);
    });

    it('getEntry finds an entry by id within its session only', async () => {
      const record = sessionRecord('s1');
      await h.store().createSession(record);
      await h.store().createSession(sessionRecord('s2'));
      const entries = textEntries('s1', 3);
      await h.store().append(entries, commitAfter(record, entries));
      expect(await h.store().getEntry('s1', 's1-e1')).toStrictEqual(entries[1]);
      expect(await h.store().getEntry('s2', 's1-e1')).toBeUndefined();
      expect(await h.store().getEntry('s1', 'missing')).toBeUndefined();
    });
  });
}
