/**
 * Postgres indexes an entry's search words at the next search, not at its append: what the turn
 * path leaves out must still be found, by any process, once; and a schema whose entries were
 * indexed as they were written keeps working after the migration.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/store/postgres.js';
import { ENTRY_WRITE_COLUMNS, entryValues } from '../../src/store/postgres-rows.js';
import { migrateSchema, PG_MIGRATIONS } from '../../src/store/postgres-schema.js';
import { INDEX_BATCH } from '../../src/store/postgres-search.js';
import { searchVector } from '../../src/store/postgres-text.js';
import { entrySearchText } from '../../src/store/search.js';
import type { Store } from '../../src/store/store.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';
import { PG_URL, pgReachable, schemaTracker } from './pg-helpers.js';

const reachable = await pgReachable();
const pool = new pg.Pool({ connectionString: PG_URL, max: 4 });
const { fresh, dropAll } = schemaTracker(pool);

async function seeded(store: Store, id: string, count: number) {
  const record = sessionRecord(id);
  await store.createSession(record);
  const entries = textEntries(id, count);
  await store.append(entries, commitAfter(record, entries));
}

const unindexed = async (schema: string) =>
  Number((await pool.query(`SELECT count(*) AS n FROM "${schema}".entries WHERE search IS NULL`)).rows[0].n);

describe.skipIf(!reachable)('postgres search indexing', () => {
  afterAll(async () => {
    await dropAll();
    await pool.end();
  });

  it("appends write no search words; another process's next search indexes them and finds them", async () => {
    const schema = fresh();
    const writer = postgresStore({ pool, schema });
    await seeded(writer, 's1', 5);
    expect(await unindexed(schema)).toBe(5);
    const other = new pg.Pool({ connectionString: PG_URL, max: 1 });
    const reader = postgresStore({ pool: other, schema });
    try {
      expect((await reader.search('message')).map((h) => h.entryId).sort()).toEqual(
        ['s1-e0', 's1-e1', 's1-e2', 's1-e3', 's1-e4'].sort(),
      );
      expect(await unindexed(schema)).toBe(0);
      // The words written are those an append used to write.
      const expected = searchVector(entrySearchText(textEntries('s1', 3)[2]!));
      const { rows } = await pool.query(
        `SELECT search = $1::tsvector AS same, words FROM "${schema}".entries WHERE seq = 2`,
        [expected.vector],
      );
      expect(rows).toEqual([{ same: true, words: expected.words }]);
    } finally {
      await reader.close();
      await other.end();
    }
  });

  it('stores searching at once index a backlog of several batches each entry once, without deadlock', async () => {
    const schema = fresh();
    const writer = postgresStore({ pool, schema });
    await seeded(writer, 's1', INDEX_BATCH * 2 + 7);
    const pools = Array.from({ length: 3 }, () => new pg.Pool({ connectionString: PG_URL, max: 1 }));
    try {
      const results = await Promise.all(
        pools.map((p) => postgresStore({ pool: p, schema }).search('message', { limit: 1000 })),
      );
      for (const hits of results) expect(hits).toHaveLength(1000);
      expect(await unindexed(schema)).toBe(0);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('a read-only connection searches what is indexed, and the next writable search catches up', async () => {
    const schema = fresh();
    const writer = postgresStore({ pool, schema });
    await seeded(writer, 's1', 2);
    expect(await writer.search('message')).toHaveLength(2);
    await seeded(writer, 's2', 3);
    const readOnly = new pg.Pool({
      connectionString: PG_URL,
      max: 1,
      options: '-c default_transaction_read_only=on',
    });
    const reader = postgresStore({ pool: readOnly, schema, migrate: false });
    try {
      expect((await reader.search('message')).map((h) => h.sessionId)).toEqual(['s1', 's1']);
      expect(await writer.search('message')).toHaveLength(5);
      expect(await reader.search('message')).toHaveLength(5);
    } finally {
      await readOnly.end();
    }
  });

  it('a schema whose entries were indexed as written keeps them found after the migration', async () => {
    const schema = fresh();
    await migrateSchema(pool, schema, PG_MIGRATIONS.slice(0, 3));
    // An entry as the earlier condense wrote it: its words in the row from the start.
    const [old] = textEntries('s1', 1);
    const { vector, words } = searchVector(entrySearchText(old!));
    const s = `"${schema}"`;
    const record = sessionRecord('s1');
    await pool.query(
      `INSERT INTO ${s}.sessions (id, created_at, updated_at, head_id, version, next_seq, metadata, state)
        VALUES ($1, $2, $2, $3, 1, 1, '{}', $4)`,
      ['s1', record.createdAt, old!.id, JSON.stringify(commitAfter(record, [old!]).state)],
    );
    const columns = [...ENTRY_WRITE_COLUMNS.map(([c]) => c), 'search', 'words'];
    await pool.query(
      `INSERT INTO ${s}.entries (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      [...entryValues(old!), vector, words],
    );

    const store = postgresStore({ pool, schema });
    const stored = (await store.getSession('s1'))!;
    const [next] = textEntries('s1', 2, 1);
    await store.append([next!], commitAfter(stored, [next!]));
    expect((await store.search('message')).map((h) => h.entryId).sort()).toEqual(['s1-e0', 's1-e1']);
    const { rows } = await pool.query(`SELECT max(version) AS v FROM ${s}.schema_migrations`);
    expect(rows[0].v).toBe(PG_MIGRATIONS.length);
  });
});
