import type { Entry } from '../model/entry.js';

/**
 * What a prune plans over, in the order the model sees it — the pivot (its summary) first, then
 * the kept tail and newer entries — read newest first, without copying the window. In log order
 * the pivot comes after the kept tail, and a scan that stopped at the summary would never reach
 * the tail. `older` are entries below the window a whole-log scan also covers (oldest first).
 *
 * A planning scan ends at the previous prune's marks, and the entries it marks lie after them:
 * reading newest first, a turn costs what became eligible since the last prune, not the window.
 */
export class PruneScope {
  /** Found on the first read: a turn whose plan still holds reads nothing. */
  private pivot: number | undefined;

  constructor(
    private readonly active: readonly Entry[],
    private readonly older: readonly Entry[] = [],
  ) {}

  private get pivotAt(): number {
    this.pivot ??= this.active.findLastIndex((e) => e.kind === 'compaction');
    return this.pivot;
  }

  *newestFirst(): Generator<Entry> {
    const { active, pivotAt } = this;
    if (pivotAt <= 0) {
      for (let i = active.length - 1; i >= 0; i--) yield active[i]!;
    } else {
      for (let i = active.length - 1; i > pivotAt; i--) yield active[i]!;
      // Older pivots left inside the kept tail are not in the view: they must not stop the scan.
      for (let i = pivotAt - 1; i >= 0; i--) if (active[i]!.kind !== 'compaction') yield active[i]!;
      yield active[pivotAt]!;
    }
    for (let i = this.older.length - 1; i >= 0; i--) yield this.older[i]!;
  }

  /** The scope oldest first (what `planPrune` takes). */
  toArray(): Entry[] {
    return [...this.newestFirst()].reverse();
  }

  /** The entries with these ids, looked for newest first until all are found. */
  find(ids: ReadonlySet<string>): Map<string, Entry> {
    const found = new Map<string, Entry>();
    if (ids.size === 0) return found;
    for (const e of this.newestFirst()) {
      if (!ids.has(e.id)) continue;
      found.set(e.id, e);
      if (found.size === ids.size) break;
    }
    return found;
  }
}
