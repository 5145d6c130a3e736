import { describe, expect, it } from 'vitest';
import type { Unit } from '../../src/compact/extractive-model.js';
import { chooseUnits, prepareUnits } from '../../src/compact/select.js';

/** Units of distinct texts, one per line, with falling value; unit 0 is tier 1. */
function units(n: number): { list: Unit[]; words: (u: Unit) => string[] } {
  const list: Unit[] = [];
  for (let i = 0; i < n; i++)
    list.push({ line: i, piece: 0, cost: 10 + (i % 7), value: 0.9 - i / (2 * n), tier: i === 0 ? 1 : 2 });
  return { list, words: (u) => [`topic${u.line % 5}`, `word${u.line}`] };
}

describe('choosing units within a room', () => {
  it('a room that limited nothing says so, and any larger room chooses the same units', () => {
    const { list, words } = units(50);
    const c = prepareUnits(list, () => 2, words);
    const all = chooseUnits(c, 10_000);
    expect(all.unbounded).toBe(true);
    expect(all.chosen.size).toBe(50);
    expect([...chooseUnits(c, 1_000_000).chosen]).toEqual([...all.chosen]);
  });

  it('a room too small for every unit is bounded and keeps within the room', () => {
    const { list, words } = units(50);
    const c = prepareUnits(list, () => 2, words);
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
      (u) => (u.line < 10 ? ['same', 'words'] : [`word${u.line}`]),
    );
    const first = chooseUnits(c, 10_000);
    const chosenSame = [...first.chosen].filter((i) => i < 10);
    expect(chosenSame).toHaveLength(1);
    expect([...chooseUnits(c, 10_000).chosen]).toEqual([...first.chosen]);
  });
});
