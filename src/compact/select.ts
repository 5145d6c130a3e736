import type { Unit } from './extractive-model.js';

/** Share of a unit's value that does not depend on its novelty (see chooseUnits). */
const BASE_SHARE = 0.3;
/** Candidates always considered, besides one per token of room (see chooseUnits). */
const MIN_CANDIDATES = 4_000;
/** Units whose value per token is within this factor are equal: the spread over the span decides. */
const STEP = Math.log(1.05);

/** The van der Corput order of an index: 0, ½, ¼, ¾, … — equal units are taken spread out, not in a run. */
function spread(i: number): number {
  let x = 0;
  let f = 0.5;
  for (let n = i; n > 0; n >>= 1, f /= 2) if (n & 1) x += f;
  return x;
}

/** A max-heap of [key, spread order, unit index]; ties go to the unit first in spread order. */
class Heap {
  private readonly items: Array<[number, number, number]> = [];
  get size(): number {
    return this.items.length;
  }
  peek(): number {
    return this.items[0]?.[0] ?? Number.NEGATIVE_INFINITY;
  }
  push(key: number, index: number): void {
    const a = this.items;
    a.push([key, spread(index), index]);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!this.above(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): [number, number, number] {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.above(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.above(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
  private above(x: [number, number, number], y: [number, number, number]): boolean {
    return x[0] > y[0] || (x[0] === y[0] && (x[1] < y[1] || (x[1] === y[1] && x[2] < y[2])));
  }
}

/** Tier-2 units best first by their worth before anything is shown: computed once per summary. */
export function rankUnits(units: readonly Unit[], lineCost: (line: number) => number): number[] {
  const keys = new Float64Array(units.length);
  const order: number[] = [];
  units.forEach((u, i) => {
    if (u.tier !== 2) return;
    keys[i] = u.value / (u.cost + lineCost(u.line));
    order.push(i);
  });
  return order.sort((a, b) => keys[b]! - keys[a]! || a - b);
}

/**
 * The units to show within `room` tokens: tier 1 first in their order, then tier 2 by value per
 * token — most informative first, wherever they stand in the span. Redundancy is removed: a
 * unit's value shrinks with the share of its words (`words`) already shown, and texts already
 * chosen are not chosen twice. The first unit of a line also pays for the line's label. Units of
 * about equal worth are taken spread over the span. Pure and deterministic (lazy greedy: a unit's
 * worth only falls as more is shown). `ranked` is rankUnits' order.
 */
export function chooseUnits(
  units: readonly Unit[],
  ranked: readonly number[],
  lineCost: (line: number) => number,
  room: number,
  words: (unit: Unit) => readonly string[],
): Set<number> {
  const chosen = new Set<number>();
  const open = new Set<number>();
  const seen = new Set<string>();
  const covered = new Set<string>();
  let left = room;
  const costOf = (u: Unit) => u.cost + (open.has(u.line) ? 0 : lineCost(u.line));
  const take = (i: number): boolean => {
    const u = units[i]!;
    const cost = costOf(u);
    if (cost > left) return false;
    const w = words(u);
    const key = w.join(' ');
    if (key !== '' && seen.has(key)) return false;
    seen.add(key);
    for (const x of w) covered.add(x);
    chosen.add(i);
    open.add(u.line);
    left -= cost;
    return true;
  };
  const novelty = (u: Unit) => {
    const w = words(u);
    if (w.length === 0) return 1;
    let fresh = 0;
    for (const x of w) if (!covered.has(x)) fresh++;
    return fresh / w.length;
  };
  // A line's label is part of what its first piece costs: counted for ordering on every piece.
  const key = (i: number, fresh: number) => {
    const u = units[i]!;
    const r = (u.value * (BASE_SHARE + (1 - BASE_SHARE) * fresh)) / (u.cost + lineCost(u.line));
    return Math.floor(Math.log(r) / STEP);
  };
  units.forEach((u, i) => {
    if (u.tier === 1) take(i);
  });
  // Keys start at full novelty (an upper bound) and are refined when they reach the top. On a huge
  // span only the best candidates by that bound compete: the rest could not make the cut.
  const heap = new Heap();
  const limit = Math.min(ranked.length, MIN_CANDIDATES + Math.max(0, Math.floor(room)));
  for (let k = 0; k < limit; k++) heap.push(key(ranked[k]!, 1), ranked[k]!);
  while (heap.size > 0 && left > 0) {
    const [, , i] = heap.pop();
    // What cannot fit any more is dropped before its words are read.
    if (costOf(units[i]!) > left) continue;
    const now = key(i, novelty(units[i]!));
    if (now < heap.peek()) heap.push(now, i);
    else take(i);
  }
  return chosen;
}
