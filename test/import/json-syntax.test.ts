import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syntaxErrorOffset } from '../../src/import/json-syntax.js';

describe('syntaxErrorOffset', () => {
  it('finds the offending character', () => {
    expect(syntaxErrorOffset('{"a": 1,\n "b": }')).toBe(15);
    expect(syntaxErrorOffset('[1,\n2,\n x]')).toBe(8);
    expect(syntaxErrorOffset('{"a": tru}')).toBe(6);
    expect(syntaxErrorOffset('[1,2')).toBe(4);
    expect(syntaxErrorOffset('{"a":1} x')).toBe(8);
    expect(syntaxErrorOffset('"tab\there"')).toBe(4);
  });

  it('agrees with JSON.parse on what parses', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(syntaxErrorOffset(text)).toBe(-1);
      }),
    );
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('}', ']', ',', ':', 'x', '"'), (text, at, junk) => {
        const broken = text.slice(0, at % (text.length + 1)) + junk + text.slice(at % (text.length + 1));
        let parses = true;
        try {
          JSON.parse(broken);
        } catch {
          parses = false;
        }
        expect(syntaxErrorOffset(broken) === -1).toBe(parses);
      }),
    );
  });
});
