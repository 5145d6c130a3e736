import type { Pool, PoolClient } from 'pg';
import { guarded, query, settle } from './postgres-pool.js';
import { PG_AGENT_TURNS_VIEW } from './postgres-turns.js';
import { SEED_002_COMPACTION_INDEX } from './turns-view.js';

/** The schema condense's tables live in unless told otherwise: apart from an application's own `sessions`. */
export const DEFAULT_PG_SCHEMA = 'condense';

/** One schema step: SQL run once, in order, with `$S` standing for the quoted schema name. */
export type PgMigration = string;

/**
 * The schema's history. Never edit a step that has shipped: add a new one. Entries keep their JSON
 * as `json` (the text as written, validated): `jsonb` would reorder keys and refuse `\u0000`, and
 * a stored entry must come back byte-identical. A message's parts have their own column so that
 * pruning rewrites them without Postgres or Node parsing the rest of the message. Session state
 * and metadata are `jsonb`, queryable and indexable.
 */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  `
  CREATE TABLE $S.sessions (
    id         TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    head_id    TEXT,
    version    BIGINT NOT NULL,
    next_seq   BIGINT NOT NULL,
    metadata   JSONB NOT NULL,
    state      JSONB NOT NULL
  );

  CREATE TABLE $S.entries (
    session_id  TEXT NOT NULL REFERENCES $S.sessions(id) ON DELETE CASCADE,
    seq         BIGINT NOT NULL,
    id          TEXT NOT NULL,
    parent_id   TEXT,
    kind        TEXT NOT NULL CHECK (kind IN ('message', 'compaction')),
    created_at  BIGINT NOT NULL,
    tokens      BIGINT NOT NULL,
    part_tokens JSONB NOT NULL,   -- number[]
    role        TEXT,             -- message entries only
    body        JSON NOT NULL,    -- the message without its parts (parts: null), or the pivot
    parts       JSON,             -- the message's parts; NULL on compaction entries

    -- Nexus's compaction columns, copied from the pivot so lineage is queryable in SQL.
    turn_type             TEXT NOT NULL DEFAULT 'normal',
    summary               TEXT,
    summarized_through_id TEXT,
    first_kept_id         TEXT,
    tokens_before         BIGINT,
    tokens_after          BIGINT,
    previous_pivot_id     TEXT,
    summarizer            TEXT,
    model                 TEXT,
    auto                  BOOLEAN,

    -- Full-text search (postgres-text.ts): the entry's words, and how many it has.
    search      TSVECTOR NOT NULL,
    words       INTEGER NOT NULL,

    -- loadFrom is a range scan of this key: a turn reads what follows the latest pivot, no more.
    PRIMARY KEY (session_id, seq),
    UNIQUE (session_id, id)
  );
  CREATE INDEX entries_compactions ON $S.entries (session_id, seq) WHERE kind = 'compaction';
  CREATE INDEX entries_children ON $S.entries (session_id, parent_id);
  CREATE INDEX entries_search ON $S.entries USING GIN (search);

  -- The events ledger: append-only, enforced by the database itself.
  CREATE TABLE $S.events (
    seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    channel     TEXT NOT NULL,
    external_id TEXT NOT NULL,
    author      TEXT NOT NULL,
    at          BIGINT NOT NULL,  -- ms since epoch, as the channel tells
    body        TEXT NOT NULL,
    metadata    JSONB NOT NULL,
    recorded_at BIGINT NOT NULL,
    search      TSVECTOR NOT NULL,
    words       INTEGER NOT NULL,
    UNIQUE (channel, external_id)
  );
  CREATE INDEX events_by_time ON $S.events (at, seq);
  CREATE INDEX events_search ON $S.events USING GIN (search);
  CREATE FUNCTION $S.events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'the events ledger is append-only: an event is never %',
        CASE TG_OP WHEN 'UPDATE' THEN 'changed' ELSE 'deleted' END;
    END $$;
  CREATE TRIGGER events_never_change BEFORE UPDATE OR DELETE ON $S.events
    FOR EACH ROW EXECUTE FUNCTION $S.events_append_only();
  `,
  // Nexus's agent_turns view, as SQLite has it (it reads entries_children, made by step 1).
  PG_AGENT_TURNS_VIEW,
  // Nexus's own index, on the table that holds its turn_type column (agent_turns is a view).
  SEED_002_COMPACTION_INDEX.replace('$T', '$S.entries'),
  // Search words are indexed by the next search, not by the append (postgres-search.ts): an
  // entry's words stay NULL until then, and this index (small: only such entries) finds them.
  // Entries written before this step keep the words they were written with.
  `
  ALTER TABLE $S.entries ALTER COLUMN search DROP NOT NULL, ALTER COLUMN words DROP NOT NULL;
  CREATE INDEX entries_unindexed ON $S.entries (session_id, seq) WHERE search IS NULL;
  `,
  // What an append writes, made cheaper (a turn's one statement, postgres.ts). The word index
  // holds only indexed entries: a search's `search @@ query` implies a word list, so it still
  // serves every search, and an append (whose words are NULL) no longer inserts into it. A
  // message's JSON is compressed with lz4 where the server has it (several times faster than
  // the default pglz, for about the same size); rows already written keep theirs.
  `
  DROP INDEX $S.entries_search;
  -- The append's compare-and-swap on the session row already proves the session is there; the
  -- foreign key checked it again on every insert. deleteSession removes a session's entries.
  ALTER TABLE $S.entries DROP CONSTRAINT entries_session_id_fkey;
  CREATE INDEX entries_search ON $S.entries USING GIN (search) WHERE search IS NOT NULL;
  DO $$ BEGIN
    ALTER TABLE $S.entries ALTER COLUMN body SET COMPRESSION lz4, ALTER COLUMN parts SET COMPRESSION lz4;
  EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
  END $$;
  `,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** A schema name used as given in SQL, so only plain identifiers are accepted. */
export function quoteSchema(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(
      `postgres schema name must be letters, digits and _ (not starting with a digit), got '${schema}'`,
    );
  }
  return `"${schema}"`;
}

/** Advisory lock namespace ('cond'); the second key is the schema's hash, so schemas migrate independently. */
const LOCK_SPACE = 0x636f6e64;

async function appliedVersion(c: Pool | PoolClient, schema: string): Promise<number> {
  const table = `${quoteSchema(schema)}.schema_migrations`;
  const [exists] = await query<{ t: string | null }>(c, 'SELECT to_regclass($1) AS t', [table]);
  if (exists?.t == null) return 0;
  const [row] = await query<{ v: number | null }>(c, `SELECT max(version)::int AS v FROM ${table}`);
  return row?.v ?? 0;
}

function tooNew(found: number, known: number): Error {
  return new Error(`postgres schema version ${found} is newer than this condense (${known})`);
}

export interface MigrateResult {
  schema: string;
  /** Versions before and after. */
  from: number;
  to: number;
}

/**
 * Brings `schema` up to the latest version. Every step runs in one transaction under an advisory
 * lock keyed by the schema, so processes migrating at once apply each step once (the others wait,
 * then find nothing to do), and a failed step leaves the schema as it was. A schema written by a
 * newer condense is refused rather than misread.
 */
export async function migrateSchema(
  pool: Pool,
  schema: string,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<MigrateResult> {
  const before = await appliedVersion(pool, schema);
  if (before > migrations.length) throw tooNew(before, migrations.length);
  if (before === migrations.length) return { schema, from: before, to: before };
  // A session lock taken before the transaction begins: a transaction started after the wait
  // sees the catalog as the previous migrator left it (one that waited inside its transaction
  // could still find the tables missing, and fail creating them again).
  const release = guarded(await pool.connect());
  const { client } = release;
  const lock = [LOCK_SPACE, schema];
  let outcome: Awaited<ReturnType<typeof settle<MigrateResult>>> | undefined;
  let unlocked = false;
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', lock);
    outcome = await settle(client, (c) => applySteps(c, schema, migrations));
    await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', lock);
    unlocked = true;
  } finally {
    // A connection that broke, or may still hold the lock, is closed rather than reused.
    release(unlocked ? outcome?.error : true);
  }
  return outcome!.unwrap();
}

async function applySteps(
  c: PoolClient,
  schema: string,
  migrations: readonly PgMigration[],
): Promise<MigrateResult> {
  const s = quoteSchema(schema);
  const from = await appliedVersion(c, schema);
  if (from > migrations.length) throw tooNew(from, migrations.length);
  await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await c.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
    version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  for (let step = from; step < migrations.length; step++) {
    await c.query(migrations[step]!.replaceAll('$S', s));
    await c.query(`INSERT INTO ${s}.schema_migrations (version) VALUES ($1)`, [step + 1]);
  }
  return { schema, from, to: migrations.length };
}

/** For a store told not to migrate: the schema must be exactly at this version. */
export async function checkSchema(pool: Pool, schema: string): Promise<void> {
  const found = await appliedVersion(pool, schema);
  if (found !== PG_SCHEMA_VERSION) {
    throw new Error(
      `postgres schema ${schema} is at version ${found}, this condense needs ${PG_SCHEMA_VERSION}; run: condense migrate --pg URL`,
    );
  }
}
