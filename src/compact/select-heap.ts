/** A heap's entries as they stood at one moment, for a run that starts again from there. */
export interface HeapState {
  index: Int32Array;
  key: Float64Array;
}

/**
 * A max-heap of unit indices by [key, spread order, unit index]; ties go to the unit first in
 * spread order. Typed arrays, not tuples: a summary fitted to its budget fills it thousands of
 * times per round. The order is total (no two entries tie), so what comes out does not depend on
 * how the entries are laid out: a heap restored from a state pops as the heap saved would have.
 */
export class Heap {
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
  /** A copy of the entries, for `restore`. */
  save(): HeapState {
    return { index: this.index.slice(0, this.length), key: this.key.slice(0, this.length) };
  }
  /** The entries of a saved state, replacing these. */
  restore(state: HeapState): void {
    this.index.set(state.index);
    this.key.set(state.key);
    this.length = state.index.length;
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

/** A growable set of small non-negative integers. */
export class Flags {
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
  /** A copy of the set, for `restore`. */
  save(): Uint8Array {
    return this.bits.slice();
  }
  restore(saved: Uint8Array): void {
    this.bits = saved.slice();
  }
}
