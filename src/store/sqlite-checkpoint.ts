import type Database from 'better-sqlite3';

/** Writes between two idle checkpoints: a few hundred WAL pages. */
const WRITES_PER_CHECKPOINT = 64;
/** WAL pages at which SQLite checkpoints inside a commit: the cap when the process never idles. */
const HARD_CAP_PAGES = 10_000;

export interface IdleCheckpoint {
  /** Called after each write transaction. */
  afterWrite(): void;
  close(): void;
}

/**
 * SQLite's own WAL checkpoint runs inside the commit that crosses 1,000 pages, so about one turn
 * in a hundred paid ~15 ms copying the log back into the database. Here the copy runs once the
 * event loop is idle after a write (an agent awaits its model between turns), as a PASSIVE
 * checkpoint that never waits for another connection; SQLite's in-commit checkpoint stays only
 * as a cap, at ten times its usual size, for a process that never idles.
 */
export function idleCheckpoint(db: Database.Database): IdleCheckpoint {
  db.pragma(`wal_autocheckpoint = ${HARD_CAP_PAGES}`);
  let writes = 0;
  let pending: NodeJS.Immediate | undefined;
  const run = () => {
    pending = undefined;
    if (!db.open) return;
    writes = 0;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or closed meanwhile: the next idle moment (or the cap) checkpoints instead.
    }
  };
  return {
    afterWrite() {
      if (++writes < WRITES_PER_CHECKPOINT || pending !== undefined) return;
      pending = setImmediate(run);
      pending.unref();
    },
    close() {
      if (pending !== undefined) clearImmediate(pending);
      pending = undefined;
    },
  };
}
