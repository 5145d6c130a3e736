import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import { DuplicateEntryError, DuplicateSessionError } from '../../src/store/errors.js';
import type { NewSession } from '../../src/store/store.js';
import type { StoreHandle } from './conformance.js';
import { commitAfter, entryAt, sessionRecord, textEntries } from './fixtures.js';

/** A session to create with `count` entries (or the given ones). */
function withEntries(id: string, count: number, entries: Entry[] = textEntries(id, count)): NewSession {
  const record = sessionRecord(id);
  return { record, initial: { entries, commit: commitAfter(record, entries) } };
}

/** createSessions: many sessions (a multi-run import) as one transaction. */
export function batchConformance(h: StoreHandle): void {
  describe('several sessions created at once', () => {
    const ids = ['run-1', 'run-2', 'run-3', 'run-4'];

    async function present(): Promise<string[]> {
      return (await h.store().listSessions()).map((s) => s.id).sort();
    }

    it('land whole: every record and every entry', async () => {
      await h
        .store()
        .createSessions([...ids.map((id, i) => withEntries(id, i + 1)), { record: sessionRecord('bare') }]);
      expect(await present()).toStrictEqual(['bare', ...ids]);
      for (const [i, id] of ids.entries()) {
        expect(await h.store().loadFrom(id, 0)).toStrictEqual(textEntries(id, i + 1));
        expect((await h.store().getSession(id))?.version).toBe(1);
      }
      expect((await h.store().getSession('bare'))?.version).toBe(0);
    });

    it('or not at all: a bad entry in the last session leaves none of them', async () => {
      const bad = [...textEntries('run-4', 2), entryAt('run-4', 2, 'run-4-e0')];
      const batch = [...ids.slice(0, 3).map((id) => withEntries(id, 3)), withEntries('run-4', 0, bad)];
      const error = await h
        .store()
        .createSessions(batch)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DuplicateEntryError);
      expect(await present()).toStrictEqual([]);
      for (const id of ids) expect(await h.store().loadFrom(id, 0)).toStrictEqual([]);
    });

    it('an id that exists fails the batch and leaves the existing session as it was', async () => {
      const existing = withEntries('run-3', 2);
      await h.store().createSessions([existing]);
      const before = await h.store().getSession('run-3');
      const error = await h
        .store()
        .createSessions(ids.map((id) => withEntries(id, 1)))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DuplicateSessionError);
      expect(error).toMatchObject({ sessionId: 'run-3' });
      expect(await present()).toStrictEqual(['run-3']);
      expect(await h.store().getSession('run-3')).toStrictEqual(before);
      expect(await h.store().loadFrom('run-3', 0)).toStrictEqual(textEntries('run-3', 2));
    });

    it('an id given twice in one batch fails it whole', async () => {
      const error = await h
        .store()
        .createSessions([withEntries('a', 1), withEntries('b', 1), withEntries('a', 2)])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DuplicateSessionError);
      expect(await present()).toStrictEqual([]);
    });

    it('an empty batch writes nothing and succeeds', async () => {
      await h.store().createSessions([]);
      expect(await present()).toStrictEqual([]);
    });
  });
}
