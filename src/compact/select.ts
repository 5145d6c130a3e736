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

/**
 * A max-heap of unit indices by [key, spread order, unit index]; ties go to the unit first in
 * spread order. Typed arrays, not tuples: a summary fitted to its budget fills it thousands of
 * times per round.
 */
class Heap {
  private readonly index: Int32Array;
  private readonly key: Float64Array;
  private length = 0;
  constructor(
    capacity: number,
    private readonly order: Float64Array,
  ) {
    this.index = new Int32Array(capacity);
    this.key = new Float64Array(capacity);
  }
  get size(): number {
    return this.length;
  }
  peek(): number {
    return this.length > 0 ? this.key[0]! : Number.NEGATIVE_INFINITY;
  }
  push(key: number, unit: number): void {
    let i = this.length++;
    this.index[i] = unit;
    this.key[i] = key;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  /** Removes the top; returns its unit index. */
  pop(): number {
    const top = this.index[0]!;
    const last = --this.length;
    if (last > 0) {
      this.index[0] = this.index[last]!;
      this.key[0] = this.key[last]!;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < last && this.above(l, m)) m = l;
        if (r < last && this.above(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
  private above(x: number, y: number): boolean {
    const kx = this.key[x]!;
    const ky = this.key[y]!;
    if (kx > ky) return true;
    if (kx !== ky) return false;
    const ix = this.index[x]!;
    const iy = this.index[y]!;
    const sx = this.order[ix]!;
    const sy = this.order[iy]!;
    return sx < sy || (sx === sy && ix < iy);
  }
  private swap(a: number, b: number): void {
    const i = this.index[a]!;
    this.index[a] = this.index[b]!;
    this.index[b] = i;
    const k = this.key[a]!;
    this.key[a] = this.key[b]!;
    this.key[b] = k;
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
 * What choosing needs of a summary's units, prepared once and shared by every round of fitting
 * the summary to its budget: each round then reads numbers, not strings. A unit's words are read
 * the first time a round needs them and kept as ids (a word's id, a text's id by its words).
 */
export interface Candidates {
  units: readonly Unit[];
  /** rankUnits' order. */
  ranked: readonly number[];
  /** Per unit: its line's label cost. */
  label: Float64Array;
  /** Per unit: its own cost and its line, read without touching the unit objects. */
  cost: Float64Array;
  line: Int32Array;
  value: Float64Array;
  /** Per unit: its spread order (see spread). */
  order: Float64Array;
  /** Per unit: its key at full novelty, NaN until computed. */
  fullKey: Float64Array;
  /** Per unit: its distinct content words as ids, once read. */
  wordIds: Array<Int32Array | undefined>;
  /** Per unit: the id of its words joined (-1: no words), once read. */
  textIds: Int32Array;
  words: (unit: Unit) => readonly string[];
  vocabulary: Map<string, number>;
  texts: Map<string, number>;
}

/** Prepares the units for chooseUnits; `words(unit)` gives a unit's distinct content words. */
export function prepareUnits(
  units: readonly Unit[],
  lineCost: (line: number) => number,
  words: (unit: Unit) => readonly string[],
): Candidates {
  const label = new Float64Array(units.length);
  const order = new Float64Array(units.length);
  const cost = new Float64Array(units.length);
  const line = new Int32Array(units.length);
  const value = new Float64Array(units.length);
  units.forEach((u, i) => {
    label[i] = lineCost(u.line);
    order[i] = spread(i);
    cost[i] = u.cost;
    line[i] = u.line;
    value[i] = u.value;
  });
  return {
    units,
    ranked: rankUnits(units, lineCost),
    label,
    cost,
    line,
    value,
    order,
    fullKey: new Float64Array(units.length).fill(Number.NaN),
    wordIds: new Array(units.length),
    textIds: new Int32Array(units.length),
    words,
    vocabulary: new Map(),
    texts: new Map(),
  };
}

/** A unit's word ids, read and interned on first use. */
function wordsOf(c: Candidates, i: number): Int32Array {
  let ids = c.wordIds[i];
  if (ids === undefined) {
    const w = c.words(c.units[i]!);
    ids = new Int32Array(w.length);
    for (let k = 0; k < w.length; k++) {
      let id = c.vocabulary.get(w[k]!);
      if (id === undefined) {
        id = c.vocabulary.size;
        c.vocabulary.set(w[k]!, id);
      }
      ids[k] = id;
    }
    const key = w.join(' ');
    let text = -1;
    if (key !== '') {
      text = c.texts.get(key) ?? c.texts.size;
      c.texts.set(key, text);
    }
    c.textIds[i] = text;
    c.wordIds[i] = ids;
  }
  return ids;
}

/** A growable set of small non-negative integers. */
class Flags {
  private bits = new Uint8Array(1_024);
  has(n: number): boolean {
    return n < this.bits.length && this.bits[n] === 1;
  }
  add(n: number): void {
    if (n >= this.bits.length) {
      const grown = new Uint8Array(Math.max(n + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[n] = 1;
  }
}

export interface Choice {
  chosen: Set<number>;
  /**
   * The room limited nothing: every candidate was weighed and none was left out for its cost. Any
   * larger room chooses the same units.
   */
  unbounded: boolean;
}

/**
 * The units to show within `room` tokens: tier 1 first in their order, then tier 2 by value per
 * token — most informative first, wherever they stand in the span. Redundancy is removed: a
 * unit's value shrinks with the share of its words already shown, and texts already chosen are
 * not chosen twice. The first unit of a line also pays for the line's label. Units of about equal
 * worth are taken spread over the span. Pure and deterministic (lazy greedy: a unit's worth only
 * falls as more is shown; `c`'s memos change no result).
 */
export function chooseUnits(c: Candidates, room: number): Choice {
  const { units, ranked, label, cost: own, line, value } = c;
  const chosen = new Set<number>();
  const open = new Flags();
  const seen = new Flags();
  const covered = new Flags();
  let left = room;
  let unbounded = true;
  const costOf = (i: number) => own[i]! + (open.has(line[i]!) ? 0 : label[i]!);
  const take = (i: number): boolean => {
    const cost = costOf(i);
    if (cost > left) {
      unbounded = false;
      return false;
    }
    const ids = wordsOf(c, i);
    const text = c.textIds[i]!;
    if (text >= 0) {
      if (seen.has(text)) return false;
      seen.add(text);
    }
    for (let k = 0; k < ids.length; k++) covered.add(ids[k]!);
    chosen.add(i);
    open.add(line[i]!);
    left -= cost;
    return true;
  };
  const novelty = (i: number) => {
    const ids = wordsOf(c, i);
    if (ids.length === 0) return 1;
    let fresh = 0;
    for (let k = 0; k < ids.length; k++) if (!covered.has(ids[k]!)) fresh++;
    return fresh / ids.length;
  };
  // A line's label is part of what its first piece costs: counted for ordering on every piece.
  const key = (i: number, fresh: number) => {
    const r = (value[i]! * (BASE_SHARE + (1 - BASE_SHARE) * fresh)) / (own[i]! + label[i]!);
    return Math.floor(Math.log(r) / STEP);
  };
  units.forEach((u, i) => {
    if (u.tier === 1) take(i);
  });
  // Keys start at full novelty (an upper bound) and are refined when they reach the top. On a huge
  // span only the best candidates by that bound compete: the rest could not make the cut.
  const limit = Math.min(ranked.length, MIN_CANDIDATES + Math.max(0, Math.floor(room)));
  if (limit < ranked.length) unbounded = false;
  const heap = new Heap(limit, c.order);
  for (let k = 0; k < limit; k++) {
    const i = ranked[k]!;
    if (Number.isNaN(c.fullKey[i]!)) c.fullKey[i] = key(i, 1);
    heap.push(c.fullKey[i]!, i);
  }
  while (heap.size > 0 && left > 0) {
    const i = heap.pop();
    // What cannot fit any more is dropped before its words are read.
    if (costOf(i) > left) {
      unbounded = false;
      continue;
    }
    const now = key(i, novelty(i));
    if (now < heap.peek()) heap.push(now, i);
    else take(i);
  }
  if (heap.size > 0) unbounded = false;
  return { chosen, unbounded };
}
