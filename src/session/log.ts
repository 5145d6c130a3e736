import type { Entry } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import { emptySessionState, type SessionRecord, type SessionState } from '../model/session.js';
import { withUpdates } from '../prune/apply.js';
import { type PartsUpdate, type Store, VersionConflictError } from '../store/store.js';
import { pagesForward, readTail } from './window-read.js';

/** One write: new entries, or replaced parts, plus the session state after it. */
export interface Write<E extends Entry = Entry> {
  append?: E[];
  update?: PartsUpdate[];
  state: SessionState;
}

const MAX_ATTEMPTS = 8;

/**
 * How much of a window a Log holds in memory: a window of more than `maxTokens` (a never-compacted
 * import, say) is held from its newest `tailTokens` on, and the rest is streamed from the store
 * when needed — by the compaction that the window's size makes due, or by `loadWhole`.
 */
export interface WindowBound {
  maxTokens: number;
  tailTokens: number;
}

/** The window held in memory and the seq it starts at (above activeFromSeq when only the tail is). */
interface Held {
  active: Entry[];
  heldFromSeq: number;
}

async function loadWindow(store: Store, record: SessionRecord, bound: WindowBound | null): Promise<Held> {
  const { activeFromSeq, activeTokens } = record.state;
  if (bound === null || activeTokens <= bound.maxTokens) {
    return { active: await store.loadFrom(record.id, activeFromSeq), heldFromSeq: activeFromSeq };
  }
  const range = { fromSeq: activeFromSeq, toSeq: record.nextSeq };
  const perEntry = activeTokens / Math.max(1, range.toSeq - range.fromSeq);
  const tail = await readTail(store, record.id, range, bound.tailTokens, perEntry);
  return { active: tail.entries, heldFromSeq: tail.fromSeq };
}

/**
 * The session's record and its active entries, cached in memory so a turn never reloads history
 * (prepare() checks the session row's version first and reloads the window if another writer
 * moved on).
 * Every change goes through `mutate`, which computes a write from the current state and commits it
 * with compare-and-swap; if another writer got there first it reloads and computes again.
 */
export class Log {
  private queue: Promise<unknown> = Promise.resolve();
  /** Told which entries a write replaced in place ('reload': any may have changed). */
  private readonly changeListeners: ((changed: string[] | 'reload') => void)[] = [];

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

  async reload(): Promise<void> {
    const record = await this.store.getSession(this.record.id);
    if (!record) throw new Error(`session ${this.record.id} no longer exists`);
    const { active, heldFromSeq } = await loadWindow(this.store, record, this.bound);
    // All at once: nothing may see the new record with the old window.
    this.record = record;
    this.active = active;
    this.heldFromSeq = heldFromSeq;
    for (const listener of this.changeListeners) listener('reload');
  }

  /** Calls `listener` after each write that replaced entries in place (a prune, a late tool result). */
  onChange(listener: (changed: string[] | 'reload') => void): void {
    this.changeListeners.push(listener);
  }

  /** Reads the part of the window not held yet, so that `active` is all of it. */
  loadWhole(): Promise<void> {
    const run = this.queue.then(async () => {
      if (this.whole) return;
      const { id, state } = this.record;
      const older: Entry[] = [];
      for await (const page of pagesForward(this.store, id, state.activeFromSeq, this.heldFromSeq))
        for (const entry of page) older.push(entry);
      // A new array: the window changed other than by appending (see IncrementalContext).
      this.active = older.concat(this.active);
      this.heldFromSeq = state.activeFromSeq;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Computes a write from (record, active) and commits it. `compute` may return null to abandon
   * (e.g. a compaction another worker already did). Returns the appended entries.
   */
  mutate<E extends Entry>(
    compute: (record: SessionRecord, active: Entry[]) => Write<E> | null,
  ): Promise<E[]> {
    // Writes from this process go one after another, so compare-and-swap retries only ever race
    // other processes: ten parallel tool results must all land, not exhaust the retries.
    const run = this.queue.then(() => this.commit(compute));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Re-reads the session row (a primary-key read) and the window if another writer moved on. */
  refresh(): Promise<void> {
    // A place in the queue: a write of ours must not interleave with the reload.
    const run = this.queue.then(async () => {
      const record = await this.store.getSession(this.record.id);
      if (record && record.version !== this.record.version) await this.reload();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async commit<E extends Entry>(
    compute: (record: SessionRecord, active: Entry[]) => Write<E> | null,
  ): Promise<E[]> {
    for (let attempt = 1; ; attempt++) {
      const write = compute(this.record, this.active);
      if (write === null) return [];
      const appended = write.append ?? [];
      const last = appended.at(-1);
      const commit = {
        sessionId: this.record.id,
        expectedVersion: this.record.version,
        headId: last?.id ?? this.record.headId,
        nextSeq: last ? last.seq + 1 : this.record.nextSeq,
        state: write.state,
      };
      if (appended.length > 0 && write.update)
        throw new Error('a write either appends or updates parts, not both');
      try {
        this.record = write.update
          ? await this.store.updateParts(write.update, commit)
          : await this.store.append(appended, commit);
      } catch (error) {
        if (!(error instanceof VersionConflictError) || attempt >= MAX_ATTEMPTS) throw error;
        await this.reload();
        continue;
      }
      this.applyLocally(write, appended);
      return appended;
    }
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
