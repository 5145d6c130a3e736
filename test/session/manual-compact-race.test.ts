/**
 * Several processes told to compact one session at the same moment: automatic compaction was
 * already exactly-once, manual compact() committed a second pivot whenever one process started
 * after another had committed (3 of 5 races with 4 processes). Now 4 racing compact() calls commit
 * one pivot — at once or one after another, through separate session objects on separate store
 * handles (memory, SQLite, Postgres) and through 4 `condense compact` processes.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import { postgresStore } from '../../src/postgres.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { cliAsync, freshDb, tempDir } from '../cli/support.js';
import { dropSchema, PG_URL, pgReachable, testSchema } from '../store/pg-helpers.js';
import { turn } from './helpers.js';

const dir = tempDir();
const postgres = await pgReachable();
const opened: Store[] = [];
const schemas: string[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  if (schemas.length === 0) return;
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  for (const schema of schemas) await dropSchema(admin, schema);
  await admin.end();
});

const options: SessionOptions = {
  model: 'm',
  limits: { contextWindow: 64_000, maxOutput: 4_000 },
  prune: false,
};
const pivots = (entries: Entry[]) => entries.filter((e) => e.kind === 'compaction').length;

/** A new place for one session; `handle()` opens another store on it, as another process would. */
type Place = { handle: () => Store; cli: string[] };
const places: [string, boolean, () => Place][] = [
  [
    'memory',
    true,
    () => {
      const shared = memoryStore();
      return { handle: () => shared, cli: [] };
    },
  ],
  [
    'sqlite',
    true,
    () => {
      const path = freshDb(dir);
      return { handle: () => sqliteStore({ path }), cli: ['--db', path] };
    },
  ],
  [
    'postgres',
    postgres,
    () => {
      const schema = testSchema();
      schemas.push(schema);
      return {
        handle: () => postgresStore({ connectionString: PG_URL, schema }),
        cli: ['--pg', PG_URL, '--pg-schema', schema],
      };
    },
  ],
];

async function filledPlace(make: () => Place): Promise<Place> {
  const place = make();
  const store = place.handle();
  opened.push(store);
  const session = await openSession(store, 's', options);
  for (let t = 0; t < 8; t++) await session.append(turn(`request ${t}`, 2, 2_000));
  return place;
}

async function storedPivots(place: Place): Promise<number> {
  const store = place.handle();
  opened.push(store);
  return pivots(await store.loadFrom('s', 0));
}

async function handles(place: Place, n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const store = place.handle();
      opened.push(store);
      return openSession(store, 's', options);
    }),
  );
}

describe.each(places)('4 racing manual compact() calls (%s)', (kind, available, make) => {
  it.skipIf(!available)('at once: one pivot', async () => {
    const place = await filledPlace(make);
    const sessions = await handles(place, 4);
    const outcomes = await Promise.all(sessions.map((s) => s.compact()));
    expect(outcomes.filter((o) => o.status === 'compacted')).toHaveLength(1);
    expect(await storedPivots(place)).toBe(1);
  });

  it.skipIf(!available)('one after another, each opened before the first compacted: one pivot', async () => {
    const place = await filledPlace(make);
    const sessions = await handles(place, 4);
    const outcomes = [];
    for (const s of sessions) outcomes.push(await s.compact());
    expect(outcomes.map((o) => o.status)).toEqual(['compacted', 'skipped', 'skipped', 'skipped']);
    expect(outcomes[1]).toEqual({
      status: 'skipped',
      reason: 'nothing was appended since the latest compaction',
    });
    expect(await storedPivots(place)).toBe(1);
    // Something new makes a manual compaction worth running again.
    await sessions[2]!.append(turn('one more request', 1, 2_000));
    expect((await sessions[3]!.compact()).status).toBe('compacted');
    // Instructions of its own ask for a new summary: the race rule does not skip it (the plan may
    // still find nothing older than the latest turn to summarize).
    const focused = await sessions[0]!.compact({ instructions: 'Focus on request 7' });
    expect(focused).not.toEqual({
      status: 'skipped',
      reason: 'nothing was appended since the latest compaction',
    });
  });

  it.skipIf(!available || kind === 'memory')(
    '4 `condense compact` processes at once: one pivot',
    async () => {
      const place = await filledPlace(make);
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => cliAsync(['compact', 's', ...place.cli, '--json'], 60_000)),
      );
      expect(runs.map((r) => r.status)).toEqual([0, 0, 0, 0]);
      expect(await storedPivots(place)).toBe(1);
    },
    90_000,
  );
});
