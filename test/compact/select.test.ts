import { describe, expect, it } from 'vitest';
import { Vocabulary } from '../../src/compact/candidates.js';
import type { Unit } from '../../src/compact/extractive-model.js';
import { chooseUnits, prepareUnits } from '../../src/compact/select.js';
import { resumableChooser } from '../../src/compact/select-resume.js';
import { rng } from '../../src/demo/synthetic.js';

/** Units of distinct texts, one per line, with falling value; unit 0 is tier 1. */
function units(n: number): { list: Unit[]; words: (u: Unit) => string[] } {
  const list: Unit[] = [];
  for (let i = 0; i < n; i++)
    list.push({ line: i, piece: 0, cost: 10 + (i % 7), value: 0.9 - i / (2 * n), tier: i === 0 ? 1 : 2 });
  return { list, words: (u) => [`topic${u.line % 5}`, `word${u.line}`] };
}

/** A unit's words as ids of one vocabulary, as prepareUnits takes them. */
function interned(words: (u: Unit) => string[]) {
  const vocabulary = new Vocabulary();
  return (u: Unit) => vocabulary.intern(words(u));
}

describe('choosing units within a room', () => {
  it('a room that limited nothing says so, and any larger room chooses the same units', () => {
    const { list, words } = units(50);
    const c = prepareUnits(list, () => 2, interned(words));
    const all = chooseUnits(c, 10_000);
    expect(all.unbounded).toBe(true);
    expect(all.chosen.size).toBe(50);
    expect([...chooseUnits(c, 1_000_000).chosen]).toEqual([...all.chosen]);
  });

  it('a room too small for every unit is bounded and keeps within the room', () => {
    const { list, words } = units(50);
    const c = prepareUnits(list, () => 2, interned(words));
    const some = chooseUnits(c, 200);
    expect(some.unbounded).toBe(false);
    expect(some.chosen.has(0)).toBe(true);
    const spent = [...some.chosen].reduce((a, i) => a + list[i]!.cost + 2, 0);
    expect(spent).toBeLessThanOrEqual(200);
    expect(some.chosen.size).toBeLessThan(50);
  });

  it('a text said twice is chosen once, and the same units come out round after round', () => {
    const { list } = units(20);
    const c = prepareUnits(
      list,
      () => 2,
      interned((u) => (u.line < 10 ? ['same', 'words'] : [`word${u.line}`])),
    );
    const first = chooseUnits(c, 10_000);
    const chosenSame = [...first.chosen].filter((i) => i < 10);
    expect(chosenSame).toHaveLength(1);
    expect([...chooseUnits(c, 10_000).chosen]).toEqual([...first.chosen]);
  });
});

describe('choosing again with another room', () => {
  /** Units of a few pieces per line, overlapping words, some repeated texts, costs with fractions. */
  function mixed(n: number, seed: number): { list: Unit[]; words: (u: Unit) => string[] } {
    const next = rng(seed);
    const list: Unit[] = [];
    for (let i = 0, line = 0; i < n; line++)
      for (let piece = 0, pieces = 1 + Math.floor(next() * 3); piece < pieces && i < n; piece++, i++)
        list.push({
          line,
          piece,
          cost: 3 + Math.floor(next() * 40) + (next() < 0.2 ? 0.5 : 0),
          value: 0.05 + next() * 0.9,
          tier: next() < 0.03 ? 1 : 2,
        });
    const texts = list.map(() =>
      next() < 0.1
        ? ['same', 'text']
        : Array.from({ length: 1 + Math.floor(next() * 6) }, () => `w${Math.floor(next() * 80)}`),
    );
    return { list, words: (u) => [...new Set(texts[list.indexOf(u)])] };
  }

  it('a run resumed from an earlier run chooses what a run from the start chooses, room for room', () => {
    for (const seed of [1, 2, 3]) {
      const { list, words } = mixed(600, seed);
      const total = list.reduce((a, u) => a + u.cost + 2, 0);
      const choose = resumableChooser(
        prepareUnits(list, () => 2, interned(words)),
        7,
      );
      const plain = prepareUnits(list, () => 2, interned(words));
      const next = rng(seed + 10);
      // A search's rooms: far apart first, then closer and closer, some asked twice.
      const rooms = [
        total,
        total / 2,
        total * 0.75,
        total * 0.6,
        total * 0.62,
        total * 0.61,
        total * 0.61,
        5,
        0,
      ];
      for (let k = 0; k < 12; k++) rooms.push(Math.floor(next() * total * 1.1));
      for (const room of rooms) {
        const got = choose(room);
        const want = chooseUnits(plain, room);
        expect([...got.chosen]).toEqual([...want.chosen]);
        expect(got.unbounded).toBe(want.unbounded);
      }
    }
  });
});
