import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import type { Entry } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import { emptySessionState, type SessionRecord, type SessionState } from '../model/session.js';
import { withUpdates } from '../prune/apply.js';
import { pagesForward } from '../store/pages.js';
import { type PartsUpdate, type Store, VersionConflictError } from '../store/store.js';
import { catchUp, loadWindow, lowestSeq, withRewrite } from './log-sync.js';
import { DEFAULT_RETRY, type RetryPolicy, retryDelay } from './retry.js';
import type { WindowBound } from './window-read.js';

/** A version read begun before a turn was prepared (Log.versionRead), and what it is compared with. */
export interface VersionRead {
  /** The held record's version when the read began. */
  held: number;
  /** The stored version (undefined: no session, or the read failed). */
  stored: Promise<number | undefined>;
}

/** One write: new entries, or replaced parts, plus the session state after it. */
export interface Write<E extends Entry = Entry> {
  append?: E[];
  update?: PartsUpdate[];
  state: SessionState;
}

/**
 * The session's record and its active entries, cached in memory so a turn never reloads history
 * (prepare() checks the session row's version first and catches up if another writer moved on).
 * Every change goes through `mutate`, which computes a write from the current state and commits it
 * with compare-and-swap; if another writer got there first it catches up and computes again.
 *
 * The retry lives here, not in the stores: a write that lost the race must be computed again —
 * its entries numbered from the new nextSeq, parented on the new head, its running figures and
 * any compaction fence taken from the new state — and only the Log knows how. A store given a
 * numbered batch could only fail or write it at the wrong seqs. Callers (the agent) never see a
 * VersionConflictError unless one write kept losing for the policy's whole deadline.
 */
export class Log {
  private queue: Promise<unknown> = Promise.resolve();
  /** Told which entries a write replaced in place ('reload': any may have changed). */
  private readonly changeListeners: ((changed: string[] | 'reload') => void)[] = [];
  /** How a conflicted write is retried (tests shorten the deadline). */
  retry: RetryPolicy = DEFAULT_RETRY;

  private constructor(
    readonly store: Store,
    public record: SessionRecord,
    public active: Entry[],
    /** Seq of the first entry held; entries of the window below it are only in the store. */
    public heldFromSeq: number,
    private readonly bound: WindowBound | null,
  ) {}

  static async open(
    store: Store,
    id: string,
    now: () => number,
    metadata: JsonObject = {},
    bound: WindowBound | null = null,
  ): Promise<Log> {
    let record = await store.getSession(id);
    if (!record) {
      const t = now();
      record = {
        id,
        createdAt: t,
        updatedAt: t,
        headId: null,
        version: 0,
        nextSeq: 0,
        metadata,
        state: emptySessionState(),
      };
      try {
        await store.createSession(record);
      } catch (error) {
        // Another process created it between our read and write: use theirs.
        record = await store.getSession(id);
        if (!record) throw error;
      }
    }
    const { active, heldFromSeq } = await loadWindow(store, record, bound);
    return new Log(store, record, active, heldFromSeq, bound);
  }

  /** Whether the whole window is in `active` (else only its tail: see WindowBound). */
  get whole(): boolean {
    return this.heldFromSeq <= this.record.state.activeFromSeq;
  }

  /** Calls `listener` after each write that replaced entries in place (a prune, a late tool result). */
  onChange(listener: (changed: string[] | 'reload') => void): void {
    this.changeListeners.push(listener);
  }

  /** Brings record and window up to the stored session, reading only what changed (log-sync.ts). */
  private async catchUp(): Promise<void> {
    const { nextSeq } = this.record;
    const next = await catchUp(this.store, this, this.bound);
    // All at once, after the reads: nothing may see the new record with the old window.
    this.record = next.record;
    if ('window' in next) {
      this.active = next.window.active;
      this.heldFromSeq = next.window.heldFromSeq;
      for (const listener of this.changeListeners) listener('reload');
    } else if (next.from === nextSeq && next.heldFromSeq === this.heldFromSeq) {
      // In place: the window only grew (the IncrementalContext contract).
      for (const e of next.entries) this.active.push(e);
    } else {
      // A new array: entries were replaced, or a pivot moved the start.
      const kept = this.active.filter((e) => e.seq >= next.heldFromSeq && e.seq < next.from);
      this.active = kept.concat(next.entries);
      this.heldFromSeq = next.heldFromSeq;
      for (const listener of this.changeListeners) listener('reload');
    }
  }

  /** Reads the part of the window not held yet, so that `active` is all of it. */
  loadWhole(): Promise<void> {
    return this.enqueue(async () => {
      if (this.whole) return;
      const { id, state } = this.record;
      const older: Entry[] = [];
      for await (const page of pagesForward(this.store, id, state.activeFromSeq, this.heldFromSeq))
        for (const entry of page) older.push(entry);
      // A new array: the window changed other than by appending (see IncrementalContext).
      this.active = older.concat(this.active);
      this.heldFromSeq = state.activeFromSeq;
    });
  }

  /**
   * Computes a write from (record, active) and commits it. `compute` may return null to abandon
   * (e.g. a compaction another worker already did). Returns the appended entries.
   */
  mutate<E extends Entry>(
    compute: (record: SessionRecord, active: Entry[]) => Write<E> | null,
  ): Promise<E[]> {
    // Writes from this process go one after another, in the order they were asked for, so each
    // writer's order is kept and compare-and-swap retries only ever race other processes.
    return this.enqueue(() => this.commit(compute));
  }

  /**
   * A read of the stored session's version begun once this process's writes asked for so far
   * are done (as refresh() reads), but not waited for: its round trip can overlap the caller's
   * own work (see preparedFresh). Null where the store cannot read a version alone (refresh()
   * then). A failed read gives undefined: the refresh that follows reads again, and reports it.
   */
  versionRead(): Promise<VersionRead> | null {
    const { store } = this;
    if (store.sessionVersion === undefined) return null;
    return this.enqueue(async () => {
      const read = {
        held: this.record.version,
        stored: store.sessionVersion!(this.record.id).catch(() => undefined),
      };
      // A pool hands out its connection on a later tick, so the query would leave only once the
      // caller's work yields: one turn of the event loop sends it first (0.07 ms of a 0.9 ms turn).
      // node:timers' own, which a test's fake timers do not replace.
      await nextLoopTurn();
      return read;
    });
  }

  /** Re-reads the session row (a primary-key read), and what other writers added if they moved on. */
  refresh(): Promise<void> {
    // A place in the queue: a write of ours must not interleave with the reads.
    return this.enqueue(() => this.catchUp());
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async commit<E extends Entry>(
    compute: (record: SessionRecord, active: Entry[]) => Write<E> | null,
  ): Promise<E[]> {
    const started = Date.now();
    for (let conflicts = 0; ; ) {
      const write = compute(this.record, this.active);
      if (write === null) return [];
      const appended = write.append ?? [];
      if (appended.length > 0 && write.update)
        throw new Error('a write either appends or updates parts, not both');
      try {
        const commit = this.commitOf(write, appended);
        this.record = write.update
          ? await this.store.updateParts(write.update, commit)
          : await this.store.append(appended, commit);
      } catch (error) {
        if (!(error instanceof VersionConflictError)) throw error;
        const wait = retryDelay(++conflicts, Date.now() - started, this.retry);
        if (wait === null) throw error;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await this.catchUp();
        continue;
      }
      this.applyLocally(write, appended);
      return appended;
    }
  }

  private commitOf(write: Write, appended: Entry[]) {
    const last = appended.at(-1);
    // Replaced parts are recorded, so that other writers know which entries to read again.
    const ids = write.update?.map((u) => u.entryId);
    const state = ids
      ? withRewrite(write.state, this.record.state, lowestSeq(this.active, ids))
      : write.state;
    return {
      sessionId: this.record.id,
      expectedVersion: this.record.version,
      headId: last?.id ?? this.record.headId,
      nextSeq: last ? last.seq + 1 : this.record.nextSeq,
      state,
    };
  }

  private applyLocally(write: Write, appended: Entry[]): void {
    if (write.update) {
      this.active = withUpdates(this.active, write.update);
      const ids = write.update.map((u) => u.entryId);
      for (const listener of this.changeListeners) listener(ids);
    }
    // push, not copy: the per-turn path must not cost more as the window grows.
    for (const e of appended) this.active.push(e);
    const from = write.state.activeFromSeq;
    if ((this.active[0]?.seq ?? from) < from) this.active = this.active.filter((e) => e.seq >= from);
  }
}
