import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { postgresStore } from '../../src/store/postgres.js';
import { migrateSchema } from '../../src/store/postgres-schema.js';
import { describeStoreConformance } from './conformance.js';
import { describeLedgerConformance } from './ledger-conformance.js';
import { dropSchema, emptySchema, PG_URL, pgReachable, testSchema } from './pg-helpers.js';

const reachable = await pgReachable();
const schema = testSchema();
const pool = new pg.Pool({ connectionString: PG_URL, max: 4 });

describe.skipIf(!reachable)('postgres', () => {
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  /** A store on the file's schema, emptied: each test starts from nothing. */
  async function fresh() {
    await migrateSchema(pool, schema);
    await emptySchema(pool, schema);
    return postgresStore({ pool, schema });
  }

  describeStoreConformance('postgres', fresh);
  describeLedgerConformance('postgres', fresh);
});
