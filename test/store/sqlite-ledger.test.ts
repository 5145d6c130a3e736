import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite.js';
import { tempDir } from './sqlite-helpers.js';

describe('sqlite events ledger', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is append-only in the database itself: UPDATE and DELETE are refused, a raw INSERT is indexed', async () => {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    const db = new Database(t.dbPath);
    cleanups.push(
      t.remove,
      () => store.close(),
      () => {
        db.close();
      },
    );
    const [stored] = await store.addEvents([
      { channel: 'discord', externalId: '1', author: 'alice', at: 1, body: 'the pelican has landed' },
    ]);
    expect(() => db.prepare("UPDATE events SET body = 'edited'").run()).toThrow(
      /append-only: an event is never changed/,
    );
    expect(() => db.prepare('DELETE FROM events').run()).toThrow(/append-only: an event is never deleted/);
    expect(await store.getEvent(stored!.id)).toStrictEqual(stored);
    db.prepare(
      "INSERT INTO events (id, channel, external_id, author, at, body, metadata, recorded_at) VALUES ('x', 'mail', '2', 'bob', 2, 'a second pelican', '{}', 3)",
    ).run();
    expect((await store.searchEvents('pelican')).map((h) => h.event.id).sort()).toStrictEqual(
      [stored!.id, 'x'].sort(),
    );
  });
});
