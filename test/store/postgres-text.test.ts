import { describe, expect, it } from 'vitest';
import { MAX_POSITION, searchQueries, searchVector } from '../../src/store/postgres-text.js';
import { parseSearchQuery } from '../../src/store/search-query.js';

describe('postgres full-text values', () => {
  it('writes the words search-query.ts reads, folded, with their positions', () => {
    expect(searchVector('Fix the Café login; the src/auth/session-store.ts')).toEqual({
      vector: "'fix':1 'the':2,5 'cafe':3 'login':4 'src':6 'auth':7 'session':8 'store':9 'ts':10",
      words: 10,
    });
    expect(searchVector('  ?! ')).toEqual({ vector: '', words: 0 });
  });

  it("stays inside Postgres's limits: positions stop at 16,383, at most 256 per word", () => {
    const { vector, words } = searchVector(`${'a '.repeat(300)}${'b '.repeat(MAX_POSITION)}c`);
    expect(words).toBe(300 + MAX_POSITION + 1);
    const positions = (w: string) => new RegExp(`'${w}':([\\d,]+)`).exec(vector)![1]!.split(',').map(Number);
    expect(positions('a')).toHaveLength(256);
    expect(positions('c')).toEqual([MAX_POSITION]);
    expect(positions('b')).toHaveLength(256);
  });

  it('queries every word through the index and each chunk as a phrase, prefixes kept', () => {
    expect(searchQueries(parseSearchQuery('"push to main" auth* CAFÉ'))).toEqual({
      words: "'push' & 'to' & 'main' & 'auth':* & 'cafe'",
      phrases: "('push' <-> 'to' <-> 'main') & ('auth':*) & ('cafe')",
    });
    // Operators in a query are words, never syntax.
    expect(searchQueries(parseSearchQuery("login' | !x")).words).toBe("'login' & 'x'");
  });
});
