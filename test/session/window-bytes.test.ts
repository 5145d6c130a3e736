import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytesDelta } from '../../src/session/json-bytes.js';
import { entryBytes, WindowBytes } from '../../src/session/oversize.js';
import { SimWindow, windowOpArb } from '../context/support/window.js';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe('jsonBytesDelta', () => {
  it("is the difference of the two objects' JSON lengths, keys added, changed, dropped or undefined", () => {
    const value = fc.oneof(fc.constant(undefined), fc.jsonValue(), fc.string({ unit: 'grapheme' }));
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), value),
        fc.dictionary(fc.string(), value),
        fc.array(fc.string()),
        (base, changes, dropped) => {
          const after: Record<string, unknown> = { ...base, ...changes };
          for (const key of dropped) delete after[key];
          expect(jsonBytesDelta(base, after)).toBe(bytes(after) - bytes(base));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('WindowBytes', () => {
  it('is the bytes of every entry of the window, through appends, prunes, compactions and reloads', () => {
    fc.assert(
      fc.property(fc.array(windowOpArb, { minLength: 1, maxLength: 30 }), (ops) => {
        const window = new SimWindow();
        const bytes = new WindowBytes();
        for (const op of ops) {
          window.apply(op);
          const whole = window.entries.reduce((sum, e) => sum + entryBytes(e), 0);
          expect(bytes.of(window.entries)).toBe(whole);
        }
      }),
      { numRuns: 300 },
    );
  });
});
