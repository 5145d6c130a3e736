import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/store/postgres.js';
import { migrateSchema, PG_SCHEMA_VERSION } from '../../src/store/postgres-schema.js';
import { pgSql } from '../../src/store/postgres-sql.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';
import { PG_URL, pgReachable, schemaTracker } from './pg-helpers.js';

const reachable = await pgReachable();
const pool = new pg.Pool({ connectionString: PG_URL, max: 3 });
const { fresh, dropAll } = schemaTracker(pool);

/** A store in a new schema whose session 's1' holds one message of `text`. */
async function storeWithText(text: string) {
  const schema = fresh();
  const store = postgresStore({ pool, schema });
  const record = sessionRecord('s1');
  await store.createSession(record);
  const [entry] = textEntries('s1', 1);
  const message = { ...entry!, message: { ...entry!.message, parts: [{ type: 'text' as const, text }] } };
  await store.append([message], commitAfter(record, [message]));
  return { schema, store };
}

describe.skipIf(!reachable)('postgres schema', () => {
  afterAll(async () => {
    await dropAll();
    await pool.end();
  });

  it('processes migrating one schema at once apply each step once: one migrates, the others wait and find it done', async () => {
    const schema = fresh();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: PG_URL, max: 1 }));
    try {
      const results = await Promise.all(pools.map((p) => migrateSchema(p, schema)));
      expect(results.filter((r) => r.from === 0)).toHaveLength(1);
      expect(results.every((r) => r.to === PG_SCHEMA_VERSION)).toBe(true);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
    const { rows } = await pool.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(rows).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })));
  });

  it('refuses a schema written by a newer condense, and a store told not to migrate an old one', async () => {
    const schema = fresh();
    await migrateSchema(pool, schema);
    await pool.query(`INSERT INTO "${schema}".schema_migrations (version) VALUES (99)`);
    await expect(migrateSchema(pool, schema)).rejects.toThrow(/version 99 is newer than this condense/);
    const store = postgresStore({ pool, schema: fresh(), migrate: false });
    await expect(store.listSessions()).rejects.toThrow(
      new RegExp(`version 0, this condense needs ${PG_SCHEMA_VERSION}; run: condense migrate`),
    );
    expect(() => postgresStore({ pool, schema: 'x; DROP TABLE y' })).toThrow(/schema name/);
  });

  it('keeps the ledger append-only in the database itself', async () => {
    const schema = fresh();
    const store = postgresStore({ pool, schema });
    await store.addEvents([{ channel: 'mail', externalId: '1', author: 'a', at: 1, body: 'pelican' }]);
    await expect(pool.query(`UPDATE "${schema}".events SET body = 'x'`)).rejects.toThrow(/never changed/);
    await expect(pool.query(`DELETE FROM "${schema}".events`)).rejects.toThrow(/never deleted/);
    await store.close();
    // The pool was the caller's: still usable after the store closed.
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('reads a turn through the (session_id, seq) key, searches through the GIN index, finds unindexed entries through theirs', async () => {
    const schema = fresh();
    await migrateSchema(pool, schema);
    const sql = pgSql(schema);
    const c = await pool.connect();
    try {
      // Plans on empty tables would scan; forbidding the scan shows which index serves each query.
      await c.query('SET enable_seqscan = off');
      const plan = async (text: string, values: unknown[]) =>
        (await c.query(`EXPLAIN ${text}`, values)).rows
          .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
          .join('\n');
      expect(await plan(sql.loadFrom, ['s', 10])).toMatch(/Index Scan using entries_pkey/);
      expect(await plan(sql.loadFrom, ['s', 10])).not.toMatch(/Sort/);
      // (session_id, id) or (session_id, parent_id): on empty tables the planner may take either.
      expect(await plan(sql.getEntry, ['s', 'e'])).toMatch(/Index Scan using entries_/);
      expect(await plan(sql.search, ["'x'", "'x'", null, 5])).toMatch(/Bitmap Index Scan on entries_search/);
      // What a search indexes first is found through the index of unindexed entries alone.
      expect(await plan(sql.unindexed, [500])).toMatch(/Index Scan using entries_unindexed/);
      expect(await plan(sql.anyUnindexed, [])).toMatch(/Index Only Scan using entries_unindexed/);
      const latestPivot = `SELECT id FROM "${schema}".entries WHERE session_id = 's' AND kind = 'compaction' ORDER BY seq DESC LIMIT 1`;
      expect(await plan(latestPivot, [])).toMatch(/entries_compactions/);
    } finally {
      c.release();
    }
  });

  it('an append writes no entry into the word index and compresses a long message with lz4; a search indexes it', async () => {
    const { schema, store } = await storeWithText('wombat '.repeat(2_000));
    const indexed = () =>
      pool
        .query(`SELECT count(*)::int AS n FROM "${schema}".entries WHERE search IS NOT NULL`)
        .then((r) => r.rows[0].n);
    expect(await indexed()).toBe(0);
    const { rows } = await pool.query(
      `SELECT pg_column_compression(parts) AS parts,
        pg_get_indexdef(to_regclass('"${schema}".entries_search')) AS words FROM "${schema}".entries`,
    );
    expect(rows[0].parts).toBe('lz4');
    expect(rows[0].words).toMatch(/WHERE \(search IS NOT NULL\)/);
    expect((await store.search('wombat')).map((h) => h.entryId)).toEqual(['s1-e0']);
    expect(await indexed()).toBe(1);
    await store.close();
  });

  it('leaves no entry without its session when a delete races appends (no foreign key does it)', async () => {
    const schema = fresh();
    const store = postgresStore({ pool, schema });
    for (let round = 0; round < 20; round++) {
      const id = `race-${round}`;
      let record = sessionRecord(id);
      await store.createSession(record);
      const appends = (async () => {
        for (let i = 0; i < 5; i++) {
          const entries = textEntries(id, 1, i);
          record = await store.append(entries, commitAfter(record, entries)).catch(() => record);
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, round % 4));
      await store.deleteSession(id);
      await appends;
    }
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM "${schema}".entries e
        WHERE NOT EXISTS (SELECT FROM "${schema}".sessions s WHERE s.id = e.session_id)`,
    );
    expect(rows[0].n).toBe(0);
    expect(await store.listSessions()).toEqual([]);
    await store.close();
  });

  it("reads a session's version alone, undefined for none", async () => {
    const store = postgresStore({ pool, schema: fresh() });
    const record = sessionRecord('s1');
    await store.createSession(record);
    const entries = textEntries('s1', 2);
    await store.append(entries, commitAfter(record, entries));
    expect(await store.sessionVersion!('s1')).toBe(1);
    expect(await store.sessionVersion!('nope')).toBeUndefined();
    await store.close();
  });

  it("finds a phrase deep in a long entry by its words, where Postgres's positions stop", async () => {
    const { store } = await storeWithText(`${'filler '.repeat(20_000)}the quokka handler`);
    expect((await store.search('"quokka handler"')).map((h) => h.entryId)).toEqual(['s1-e0']);
    expect((await store.search('quokka')).map((h) => h.snippet)).toEqual([
      expect.stringContaining('«quokka»'),
    ]);
    await store.close();
  });
});
