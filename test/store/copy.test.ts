import { describe, expect, it } from 'vitest';
import { copyValue } from '../../src/store/copy.js';

describe('copyValue', () => {
  it('copies every object and array of a tree, so changing the copy leaves the original', () => {
    const original = { a: [1, { b: 'text', c: [null, true] }], d: { e: { f: 0.5 } }, g: undefined };
    const copy = copyValue(original);
    expect(copy).toStrictEqual(original);
    expect(Object.keys(copy)).toStrictEqual(['a', 'd', 'g']);
    (copy.a[1] as { c: unknown[] }).c.push('x');
    copy.d.e.f = 9;
    expect(original).toStrictEqual({
      a: [1, { b: 'text', c: [null, true] }],
      d: { e: { f: 0.5 } },
      g: undefined,
    });
  });

  it('keeps holes, and a __proto__ key read from JSON as an own key', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is what is tested
    const sparse = [1, , 3];
    expect(copyValue(sparse)).toStrictEqual(sparse);
    const parsed = JSON.parse('{"__proto__": {"polluted": 1}, "k": 2}') as Record<string, unknown>;
    const copy = copyValue(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy).toStrictEqual(parsed);
  });

  it('leaves what is not plain data to structuredClone: bytes, dates, cycles, functions', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const copy = copyValue({ bytes, at: new Date(5) });
    expect(copy.bytes).not.toBe(bytes);
    expect(copy).toStrictEqual({ bytes: new Uint8Array([1, 2, 3]), at: new Date(5) });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const again = copyValue(cyclic);
    expect(again.self).toBe(again);
    expect(again).not.toBe(cyclic);
    expect(() => copyValue({ f: () => 1 })).toThrow(/could not be cloned/);
  });
});
