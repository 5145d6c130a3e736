import type { Unit } from './extractive-model.js';

/** The van der Corput order of an index: 0, ½, ¼, ¾, … — equal units are taken spread out, not in a run. */
function spread(i: number): number {
  let x = 0;
  let f = 0.5;
  for (let n = i; n > 0; n >>= 1, f /= 2) if (n & 1) x += f;
  return x;
}

/** Tier-2 units best first by their worth before anything is shown: computed once per summary. */
function rankUnits(units: readonly Unit[], lineCost: (line: number) => number): number[] {
  const keys = new Float64Array(units.length);
  const order: number[] = [];
  units.forEach((u, i) => {
    if (u.tier !== 2) return;
    keys[i] = u.value / (u.cost + lineCost(u.line));
    order.push(i);
  });
  return order.sort((a, b) => keys[b]! - keys[a]! || a - b);
}

/** A text's distinct content words as ids, and the id of the text by its words (-1: no words). */
export interface WordIds {
  ids: Int32Array;
  text: number;
}

/** Ids of words and of texts by their words: equal ids, equal words. */
export class Vocabulary {
  private readonly words = new Map<string, number>();
  private readonly texts = new Map<string, number>();
  /** Words and texts held. */
  get size(): number {
    return this.words.size + this.texts.size;
  }
  intern(w: readonly string[]): WordIds {
    const ids = new Int32Array(w.length);
    for (let k = 0; k < w.length; k++) {
      let id = this.words.get(w[k]!);
      if (id === undefined) {
        id = this.words.size;
        this.words.set(w[k]!, id);
      }
      ids[k] = id;
    }
    const key = w.join(' ');
    let text = -1;
    if (key !== '') {
      text = this.texts.get(key) ?? this.texts.size;
      this.texts.set(key, text);
    }
    return { ids, text };
  }
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
  words: (unit: Unit) => WordIds;
}

/** Prepares the units for chooseUnits; `words(unit)` gives a unit's distinct content words as ids. */
export function prepareUnits(
  units: readonly Unit[],
  lineCost: (line: number) => number,
  words: (unit: Unit) => WordIds,
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
  };
}

/** A unit's word ids, read on first use. */
export function wordsOf(c: Candidates, i: number): Int32Array {
  let ids = c.wordIds[i];
  if (ids === undefined) {
    const w = c.words(c.units[i]!);
    ids = w.ids;
    c.textIds[i] = w.text;
    c.wordIds[i] = ids;
  }
  return ids;
}
