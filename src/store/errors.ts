/** A write named a session that does not exist (or no longer does). */
export class UnknownSessionError extends Error {
  override name = 'UnknownSessionError';
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} does not exist`);
  }
}

/** A session id was created twice. */
export class DuplicateSessionError extends Error {
  override name = 'DuplicateSessionError';
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} already exists`);
  }
}

/** An append would give two entries of one session the same id or the same seq. */
export class DuplicateEntryError extends Error {
  override name = 'DuplicateEntryError';
  constructor(
    readonly sessionId: string,
    readonly field: 'id' | 'seq',
    readonly value: string | number,
  ) {
    super(`session ${sessionId}: an entry with ${field} ${JSON.stringify(value)} already exists`);
  }
}

/** A write that cannot be applied as asked (wrong session on an entry, pruning a missing entry...). */
export class StoreWriteError extends Error {
  override name = 'StoreWriteError';
}

/** A stored row that cannot be read back; names where, so the row can be found and repaired. */
export class CorruptRowError extends Error {
  override name = 'CorruptRowError';
  constructor(
    readonly table: string,
    readonly sessionId: string,
    readonly seq: number | undefined,
    readonly column: string,
    reason: string,
  ) {
    const where = seq === undefined ? `session ${sessionId}` : `session ${sessionId}, seq ${seq}`;
    super(`${table} row (${where}): column ${column} is not valid JSON: ${reason}`);
  }
}

/** The store was closed; nothing more can be read or written through it. */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  constructor(kind: string) {
    super(`the ${kind} store is closed`);
  }
}

/**
 * The connection to the database was lost and could not be made again in time. Retryable: the
 * store works again once the server answers. `maybeApplied` says whether the write in flight may
 * have landed (its COMMIT was sent): read the session before repeating a write that is not idempotent.
 */
export class StoreConnectionError extends Error {
  override name = 'StoreConnectionError';
  readonly retryable = true;
  constructor(
    readonly operation: string,
    readonly maybeApplied: boolean,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `${operation}: the connection to the database was lost (${reason}) and did not come back; ${
        maybeApplied
          ? 'the write may have been applied: read the session before repeating it'
          : 'nothing was written: retry'
      }`,
      { cause },
    );
  }
}

/** Another process writes this session (the JSONL store's writer lock); nothing was written. */
export class SessionLockedError extends Error {
  override name = 'SessionLockedError';
  constructor(
    readonly sessionId: string,
    readonly lockFile: string,
    readonly holderPid: number | undefined,
    readonly holderHost: string | undefined,
  ) {
    const who =
      holderPid === undefined
        ? 'another process'
        : `process ${holderPid}${holderHost ? ` on ${holderHost}` : ''}`;
    super(
      `session ${sessionId} is being written by ${who} (lock ${lockFile}): one process writes a JSONL session at a time, nothing was written; use the SQLite or Postgres store for several writers, or remove the lock file if that process is gone`,
    );
  }
}
