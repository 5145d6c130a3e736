import type Database from 'better-sqlite3';
import { AGENT_TURNS_VIEW } from './sqlite-turns.js';
import { SEED_002_COMPACTION_INDEX } from './turns-view.js';

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

        -- Nexus's compaction columns, copied from the pivot so lineage is queryable in SQL.
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
  // The queued compaction task's part was renamed 'compaction-marker' → 'compaction' (the type
  // Qwery and opencode store); rows written before keep working.
  (db) => {
    db.exec(`
      UPDATE entries SET body = replace(body, '"type":"compaction-marker"', '"type":"compaction"')
      WHERE kind = 'message' AND role = 'user' AND body LIKE '%"type":"compaction-marker"%';
    `);
  },
  // Full-text search over entries. Contentless: the words are indexed, the text is not stored a
  // second time (tool outputs can be megabytes); snippets are cut from the entry's own body.
  // contentless_delete lets a re-pruned (erase mode) or deleted entry be taken out by rowid. The
  // index is filled by searches, up to search_state's watermark (sqlite-search.ts), so existing
  // entries need no backfill here and appends pay nothing for it.
  (db) => {
    db.exec(`
      CREATE VIRTUAL TABLE entries_fts USING fts5(
        text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TABLE search_state (indexed_through INTEGER NOT NULL);
      INSERT INTO search_state VALUES (0);
    `);
  },
  // The events ledger (append-only: triggers refuse UPDATE and DELETE; its search index is fed by
  // a trigger, so even a raw INSERT is indexed) and Nexus's agent_turns view.
  (db) => {
    db.exec(`
      CREATE TABLE events (
        seq         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        channel     TEXT NOT NULL,
        external_id TEXT NOT NULL,
        author      TEXT NOT NULL,
        at          INTEGER NOT NULL,  -- ms since epoch, as the channel tells
        body        TEXT NOT NULL,
        metadata    TEXT NOT NULL,     -- JSON object
        recorded_at INTEGER NOT NULL,
        UNIQUE (channel, external_id)
      );
      CREATE INDEX events_by_time ON events (at, seq);
      CREATE VIRTUAL TABLE events_fts USING fts5(
        text, content = '', tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER events_index AFTER INSERT ON events BEGIN
        INSERT INTO events_fts (rowid, text) VALUES (new.seq, new.author || char(10) || new.body);
      END;
      CREATE TRIGGER events_never_change BEFORE UPDATE ON events BEGIN
        SELECT RAISE(ABORT, 'the events ledger is append-only: an event is never changed');
      END;
      CREATE TRIGGER events_never_delete BEFORE DELETE ON events BEGIN
        SELECT RAISE(ABORT, 'the events ledger is append-only: an event is never deleted');
      END;
      -- Which entries continue a given one: agent_turns' has_children, without scanning.
      CREATE INDEX entries_children ON entries (session_id, parent_id);
      ${AGENT_TURNS_VIEW}
    `);
  },
  // Nexus's own index, on the table that holds its turn_type column (agent_turns is a view).
  (db) => {
    db.exec(SEED_002_COMPACTION_INDEX.replace('$T', 'entries'));
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
