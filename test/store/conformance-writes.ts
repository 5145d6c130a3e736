import { describe, expect, it } from 'vitest';
import type { Part } from '../../src/model/parts.js';
import type { SessionRecord } from '../../src/model/session.js';
import { DuplicateEntryError, StoreWriteError, UnknownSessionError } from '../../src/store/errors.js';
import { type PartsUpdate, VersionConflictError } from '../../src/store/store.js';
import type { StoreHandle } from './conformance.js';
import { commitAfter, entryAt, pivotEntry, sessionRecord, textEntries } from './fixtures.js';

const PRUNED: Part[] = [{ type: 'text', text: '[output pruned]', synthetic: true }];

/** Compare-and-swap, all-or-nothing batches, and part replacement. */
export function writeConformance(h: StoreHandle): void {
  /** A session holding entries s1-e0..s1-e4, at version 1. */
  async function seeded(): Promise<SessionRecord> {
    const record = sessionRecord('s1');
    await h.store().createSession(record);
    const entries = textEntries('s1', 5);
    return h.store().append(entries, commitAfter(record, entries));
  }

  /** Asserts the session and its entries are exactly as they were before a failed write. */
  async function expectUnchanged(record: SessionRecord): Promise<void> {
    expect(await h.store().getSession('s1')).toStrictEqual(record);
    expect(await h.store().loadFrom('s1', 0)).toStrictEqual(textEntries('s1', 5));
  }

  describe('a session created with its first entries', () => {
    it('lands whole: the record and every entry', async () => {
      const record = sessionRecord('s1');
      const entries = textEntries('s1', 5);
      await h.store().createSession(record, { entries, commit: commitAfter(record, entries) });
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual(entries);
      expect((await h.store().getSession('s1'))?.version).toBe(1);
    });

    it('or not at all: a duplicate entry leaves no session behind', async () => {
      const record = sessionRecord('s1');
      const entries = [...textEntries('s1', 3), entryAt('s1', 3, 's1-e0')];
      const error = await h
        .store()
        .createSession(record, { entries, commit: commitAfter(record, entries) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DuplicateEntryError);
      expect(await h.store().getSession('s1')).toBeUndefined();
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual([]);
    });
  });

  describe('compare-and-swap on the session version', () => {
    it('a stale append throws VersionConflictError with both versions and writes nothing', async () => {
      const record = await seeded();
      const late = textEntries('s1', 2, 5);
      const stale = { ...commitAfter(record, late), expectedVersion: 0 };
      const error = await h
        .store()
        .append(late, stale)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VersionConflictError);
      expect(error).toMatchObject({ sessionId: 's1', expected: 0, actual: 1 });
      await expectUnchanged(record);
      expect(await h.store().getEntry('s1', 's1-e5')).toBeUndefined();
    });

    it('an append returns the session as stored, its metadata kept or replaced', async () => {
      const record = await seeded();
      const more = textEntries('s1', 1, 5);
      const kept = await h.store().append(more, commitAfter(record, more));
      expect(kept).toStrictEqual(await h.store().getSession('s1'));
      const metadata = { title: 'renamed', tags: ['a'] };
      const replaced = await h.store().append([], { ...commitAfter(kept, []), metadata });
      expect(replaced).toStrictEqual(await h.store().getSession('s1'));
      expect(replaced.metadata).toStrictEqual(metadata);
    });

    it('a stale updateParts throws VersionConflictError and changes no part', async () => {
      const record = await seeded();
      const update: PartsUpdate = { entryId: 's1-e1', parts: PRUNED, partTokens: [4], tokens: 8 };
      const stale = { ...commitAfter(record), expectedVersion: 7 };
      await expect(h.store().updateParts([update], stale)).rejects.toMatchObject({ expected: 7, actual: 1 });
      await expectUnchanged(record);
    });

    it('of two writers reading the same version, exactly one wins', async () => {
      const record = await seeded();
      const a = [entryAt('s1', 5, 'from-a')];
      const b = [entryAt('s1', 5, 'from-b')];
      const results = await Promise.allSettled([
        h.store().append(a, commitAfter(record, a)),
        h.store().append(b, commitAfter(record, b)),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const failed = results.find((r) => r.status === 'rejected');
      expect(failed?.status === 'rejected' && failed.reason).toBeInstanceOf(VersionConflictError);
      const tail = await h.store().loadFrom('s1', 5);
      expect(tail).toHaveLength(1);
      expect((await h.store().getSession('s1'))?.version).toBe(2);
    });

    it('writing to an unknown session throws UnknownSessionError', async () => {
      const entries = textEntries('ghost', 1);
      const commit = commitAfter(sessionRecord('ghost'), entries);
      await expect(h.store().append(entries, commit)).rejects.toBeInstanceOf(UnknownSessionError);
      await expect(h.store().updateParts([], commit)).rejects.toBeInstanceOf(UnknownSessionError);
      expect(await h.store().listSessions()).toStrictEqual([]);
    });
  });

  describe('all-or-nothing appends', () => {
    const cases: [string, () => ReturnType<typeof textEntries>, 'id' | 'seq'][] = [
      ['a seq already stored', () => [...textEntries('s1', 3, 5), entryAt('s1', 2, 'clash-seq')], 'seq'],
      ['an id already stored', () => [...textEntries('s1', 3, 5), entryAt('s1', 9, 's1-e0')], 'id'],
      ['a seq twice in the batch', () => [...textEntries('s1', 3, 5), entryAt('s1', 6, 'twin')], 'seq'],
      ['an id twice in the batch', () => [...textEntries('s1', 3, 5), entryAt('s1', 9, 's1-e5')], 'id'],
    ];
    for (const [what, batch, field] of cases) {
      it(`a batch with ${what} fails with DuplicateEntryError and leaves nothing half-written`, async () => {
        const record = await seeded();
        const entries = batch();
        const error = await h
          .store()
          .append(entries, commitAfter(record, entries))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateEntryError);
        expect(error).toMatchObject({ sessionId: 's1', field });
        await expectUnchanged(record);
        // The store is still usable and the version the caller holds is still the right one.
        const good = textEntries('s1', 1, 5);
        expect((await h.store().append(good, commitAfter(record, good))).version).toBe(2);
      });
    }

    it('refuses entries that belong to another session', async () => {
      const record = await seeded();
      const entries = [...textEntries('s1', 1, 5), ...textEntries('s2', 1, 6)];
      await expect(h.store().append(entries, commitAfter(record, entries))).rejects.toBeInstanceOf(
        StoreWriteError,
      );
      await expectUnchanged(record);
    });
  });

  describe('updateParts', () => {
    it('replaces the parts, part tokens and tokens of exactly the given entries', async () => {
      const record = await seeded();
      const updates: PartsUpdate[] = [
        { entryId: 's1-e1', parts: PRUNED, partTokens: [4], tokens: 8 },
        {
          entryId: 's1-e3',
          parts: [...PRUNED, { type: 'text', text: 'kept' }],
          partTokens: [4, 1],
          tokens: 9,
        },
      ];
      const after = await h.store().updateParts(updates, commitAfter(record));
      expect(after.version).toBe(2);
      const original = textEntries('s1', 5);
      const expected = original.map((entry) => {
        const u = updates.find((x) => x.entryId === entry.id);
        if (u === undefined) return entry;
        return {
          ...entry,
          message: { ...entry.message, parts: u.parts },
          partTokens: u.partTokens,
          tokens: u.tokens,
        };
      });
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual(expected);
      expect(await h.store().getEntry('s1', 's1-e3')).toStrictEqual(expected[3]);
    });

    it('applies a batch of any size whole, and of two updates of one entry the later', async () => {
      const record = sessionRecord('s1');
      await h.store().createSession(record);
      const entries = textEntries('s1', 1_200);
      const r1 = await h.store().append(entries, commitAfter(record, entries));
      const updates: PartsUpdate[] = entries.map((e) => ({
        entryId: e.id,
        parts: [{ type: 'text', text: `pruned ${e.seq}` }],
        partTokens: [3],
        tokens: 7,
      }));
      updates.push({ entryId: 's1-e5', parts: PRUNED, partTokens: [4], tokens: 8 });
      await h.store().updateParts(updates, commitAfter(r1));
      const loaded = await h.store().loadFrom('s1', 0);
      expect(loaded).toHaveLength(1_200);
      loaded.forEach((entry, i) => {
        const want = i === 5 ? PRUNED : [{ type: 'text', text: `pruned ${i}` }];
        expect(entry.kind === 'message' && entry.message.parts).toStrictEqual(want);
        expect(entry.tokens).toBe(i === 5 ? 8 : 7);
      });
    });

    it('keeps the message role and metadata while replacing parts', async () => {
      const record = sessionRecord('s1');
      await h.store().createSession(record);
      const [entry] = textEntries('s1', 1);
      const withMeta = { ...entry!, message: { ...entry!.message, metadata: { finish: 'stop' } } };
      const r1 = await h.store().append([withMeta], commitAfter(record, [withMeta]));
      await h
        .store()
        .updateParts([{ entryId: 's1-e0', parts: PRUNED, partTokens: [4], tokens: 8 }], commitAfter(r1));
      const loaded = await h.store().getEntry('s1', 's1-e0');
      expect(loaded?.kind === 'message' && loaded.message).toStrictEqual({
        role: 'user',
        parts: PRUNED,
        metadata: { finish: 'stop' },
      });
    });

    const bad: [string, PartsUpdate][] = [
      ['a missing entry', { entryId: 'missing', parts: PRUNED, partTokens: [4], tokens: 8 }],
      ['a compaction entry', { entryId: 'pivot', parts: PRUNED, partTokens: [4], tokens: 8 }],
      [
        'parts and partTokens of different lengths',
        { entryId: 's1-e2', parts: PRUNED, partTokens: [], tokens: 8 },
      ],
    ];
    for (const [what, update] of bad) {
      it(`a batch touching ${what} fails and applies none of its updates`, async () => {
        const base = await seeded();
        const pivot = pivotEntry('s1', 5, 'pivot', 's1-e4', 's1-e3');
        const record = await h.store().append([pivot], commitAfter(base, [pivot]));
        const good: PartsUpdate = { entryId: 's1-e0', parts: PRUNED, partTokens: [4], tokens: 8 };
        await expect(h.store().updateParts([good, update], commitAfter(record))).rejects.toBeInstanceOf(
          StoreWriteError,
        );
        expect(await h.store().getSession('s1')).toStrictEqual(record);
        expect(await h.store().loadFrom('s1', 0)).toStrictEqual([...textEntries('s1', 5), pivot]);
      });
    }
  });
}
