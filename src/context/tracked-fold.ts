import { deepFreeze } from './pieces.js';
import type { Assembler, Fold } from './serialize/assembler.js';
import { CallIds } from './serialize/common.js';

/** One fragment as it was folded. */
interface Slot {
  fragment: unknown;
  /** How many items the request held before it was added. */
  at: number;
  /** Whether adding it replaced the item before `at` (a turn merged into it, a prefill restored). */
  touched: boolean;
  /** Where the call-id names it took begin in `names`. */
  names: number;
}

/**
 * A format's fold that remembers where each fragment went, so that fragments replaced in the
 * middle of a request are folded again with only their neighbours: a prune hides a few outputs
 * deep in a long request, and a fold of the whole request would cost as much as the first one.
 *
 * A fold is sequential, but it looks back only at the item before a fragment (to merge with it)
 * and at the call ids taken before it. So a stretch of fragments that begins with one that did not
 * touch the item before it, and ends with an unchanged one that did not either (and that the next
 * one did not touch), folds again on its own into the same items as in the whole request, given the
 * same call-id names (see CallIds). Every such assumption is checked as the stretch is folded
 * again; when one fails, `replace` says so and the caller rebuilds the request.
 */
export class TrackedFold {
  private fold: Fold<unknown, unknown>;
  private slots: Slot[] = [];
  private readonly ids = new CallIds();
  /** Every call-id name taken, in fold order. */
  private readonly names: string[] = [];

  constructor(private readonly assembler: Assembler<unknown, unknown, unknown>) {
    this.ids.taken = this.names;
    this.fold = assembler.fold({ items: [], ids: this.ids });
  }

  /** The request's message list: extended in place, never replaced. */
  get items(): unknown[] {
    return this.fold.items;
  }

  /** Folds `fragment` onto the request; returns its slot (what `replace` names it by). */
  add(fragment: unknown): number {
    const items = this.fold.items;
    const at = items.length;
    const before = items[at - 1];
    const names = this.names.length;
    this.fold.add(fragment);
    // Merged or renamed turns are new objects: frozen like the fragments they are made of.
    for (let i = Math.max(0, at - 1); i < items.length; i++) deepFreeze(items[i]);
    this.slots.push({ fragment, at, touched: at > 0 && items[at - 1] !== before, names });
    return this.slots.length - 1;
  }

  /**
   * The request with the fragments of some slots replaced (`fragments`: slot -> new fragment),
   * as a fold of every fragment from the start would give it; false when that cannot be
   * guaranteed, and the fold is then left unusable (the caller starts over).
   */
  replace(fragments: ReadonlyMap<number, unknown>): boolean {
    const changed = [...fragments.keys()].sort((a, b) => a - b);
    for (const [slot, fragment] of fragments) this.slots[slot]!.fragment = fragment;
    let k = 0;
    while (k < changed.length) {
      // From a fragment that began items of its own...
      let from = changed[k]!;
      while (from > 0 && !this.standsAlone(from)) from--;
      // ...to one that did too, unchanged and folded again: if it still does, whatever follows
      // it sees the request as before. Fragments that merged into the stretch's last item (or
      // added none) belong to the stretch.
      let to = changed[k]!;
      for (;;) {
        to = this.mergedInto(to);
        while (k < changed.length && changed[k]! <= to) k++;
        if (to === this.slots.length - 1) break;
        to++;
        if (k < changed.length && changed[k] === to) continue;
        if (this.mergedInto(to) === to) break;
      }
      if (!this.refold(from, to)) return false;
    }
    return true;
  }

  /** Whether a slot's fragment added items without touching the one before. */
  private standsAlone(slot: number): boolean {
    const s = this.slots[slot]!;
    return !s.touched && this.end(slot) > s.at;
  }

  /** Where a slot's items end: where the next one's begin. */
  private end(slot: number): number {
    return slot + 1 < this.slots.length ? this.slots[slot + 1]!.at : this.fold.items.length;
  }

  /** The last slot of the run from `slot` on that merged into (or added nothing after) the one before. */
  private mergedInto(slot: number): number {
    let last = slot;
    while (last + 1 < this.slots.length && !this.standsAlone(last + 1)) last++;
    return last;
  }

  /** Folds slots `from`..`to` again and puts their items in place of the old ones. */
  private refold(from: number, to: number): boolean {
    const { slots, names } = this;
    const items = this.fold.items;
    const toEnd = to === slots.length - 1;
    const start = slots[from]!.at;
    const end = this.end(to);
    const namesFrom = slots[from]!.names;
    const oldNames = names.slice(namesFrom, toEnd ? names.length : slots[to + 1]!.names);
    // To the end: the request itself is cut back and folded on, and the new fold goes on from
    // there. Else the stretch is folded apart, after the item before it, and spliced in.
    const base = toEnd ? start : Math.min(start, 1);
    const list = toEnd ? items : items.slice(start - base, start);
    const before = list[base - 1];
    if (toEnd) items.length = start;
    this.ids.release(oldNames);
    const retaken: string[] = [];
    this.ids.taken = retaken;
    const fold = this.assembler.fold({ items: list, ids: this.ids });
    const folded: Slot[] = [];
    for (let s = from; s <= to; s++) {
      const { fragment } = slots[s]!;
      const at = list.length;
      const last = list[at - 1];
      const taken = retaken.length;
      fold.add(fragment);
      const touched = at > 0 && list[at - 1] !== last;
      folded.push({ fragment, at: start + at - base, touched, names: namesFrom + taken });
    }
    this.ids.taken = names;
    // The stretch folds as it did: the item before it untouched, its unchanged last fragment (short
    // of the end) on its own, the same call-id names in the same order.
    const alone = toEnd || (!folded.at(-1)!.touched && folded.at(-1)!.at < start + list.length - base);
    const same = retaken.length === oldNames.length && retaken.every((n, i) => n === oldNames[i]);
    if (list[base - 1] !== before || !alone || !same) return false;
    for (let i = base; i < list.length; i++) deepFreeze(list[i]);
    if (toEnd) this.fold = fold;
    else {
      const added = list.slice(base);
      items.splice(start, end - start, ...added);
      const shift = added.length - (end - start);
      if (shift !== 0) for (let s = to + 1; s < slots.length; s++) slots[s]!.at += shift;
    }
    for (let s = from; s <= to; s++) slots[s] = folded[s - from]!;
    return true;
  }
}
