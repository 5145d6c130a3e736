import type Database from 'better-sqlite3';

type Db = Database.Database;

/** One schema step. Applied once, in order, inside a transaction that also bumps user_version. */
export type Migration = (db: Db) => void;

/**
 * The schema's history. Never edit a step that has shipped: add a new one. The schema version of
 * a file is `PRAGMA user_version`, i.e. how many of these steps it has had.
 */
export const MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.exec(`
      CREATE TABLE sessions (
        id         TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        head_id    TEXT,
        version    INTEGER NOT NULL,
        next_seq   INTEGER NOT NULL,
        metadata   TEXT NOT NULL,  -- JSON object
        state      TEXT NOT NULL   -- JSON SessionState
      );

      -- Rows can hold megabytes of tool output, so this is a rowid table (not WITHOUT ROWID):
      -- the (session_id, seq) key index stays small and loadFrom is a range search on it.
      CREATE TABLE entries (
        session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        id          TEXT NOT NULL,
        parent_id   TEXT,
        kind        TEXT NOT NULL CHECK (kind IN ('message', 'compaction')),
        created_at  INTEGER NOT NULL,
        tokens      INTEGER NOT NULL,
        part_tokens TEXT NOT NULL,  -- JSON number[]
        role        TEXT,           -- message entries only
        body        TEXT NOT NULL,  -- JSON: the message, or the pivot of a compaction entry

        -- Seed 002's compaction columns, copied from the pivot so lineage is queryable in SQL.
        -- NULL on message entries; the body stays the source of truth when reading.
        turn_type             TEXT NOT NULL DEFAULT 'normal',
        summary               TEXT,
        summarized_through_id TEXT,
        first_kept_id         TEXT,
        tokens_before         INTEGER,
        tokens_after          INTEGER,
        previous_pivot_id     TEXT,
        summarizer            TEXT,
        model                 TEXT,
        auto                  INTEGER,

        PRIMARY KEY (session_id, seq),
        UNIQUE (session_id, id)
      );

      CREATE INDEX entries_compactions ON entries (session_id, seq) WHERE kind = 'compaction';
    `);
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings a file up to SCHEMA_VERSION, one transaction per step so that a failed step leaves the
 * file at the previous version. A file written by newer code is refused rather than misread.
 */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): void {
  const found = schemaVersion(db);
  if (found > migrations.length) {
    throw new Error(`database schema version ${found} is newer than this condense (${migrations.length})`);
  }
  for (let step = found; step < migrations.length; step++) {
    // IMMEDIATE takes the write lock before the version is re-read, so two processes opening a new
    // file at once do not both run a step ("table sessions already exists").
    db.transaction(() => {
      if (schemaVersion(db) > step) return;
      migrations[step]!(db);
      db.pragma(`user_version = ${step + 1}`);
    }).immediate();
  }
}

/** A read-only connection cannot migrate; it accepts only a file already at this version. */
export function checkSchemaVersion(db: Db): void {
  const found = schemaVersion(db);
  if (found !== SCHEMA_VERSION) {
    throw new Error(
      `database schema version is ${found}, this condense reads ${SCHEMA_VERSION}; open it read-write once to migrate`,
    );
  }
}
