/**
 * The memory store's search is the SQLite index's equivalent: for random texts and queries it
 * matches exactly the documents FTS5 matches, with FTS5's own bm25 score.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { ftsExpression, parseSearchQuery, tokenize } from '../../src/store/search-query.js';
import { rankDocs } from '../../src/store/search-rank.js';
import { snippet } from '../../src/store/search-snippet.js';

const WORDS = ['Café', 'cafe', 'CAFÉS', 'naïve', 'auth', 'authentication', 'Zürich', 'x1', '42', '日本', 'ß'];
const SEPARATORS = [' ', ', ', '/', '-', '_', '.', '\n', ' "', '(', ') '];
const textArb = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 12 })
  .map((pairs) => pairs.map(([w, s]) => w + s).join(''));
const chunkArb = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(...WORDS).map((w) => `${w.slice(0, 3)}*`),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `"${a} ${b}"`),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${a}/${b}`),
);
const queryArb = fc.array(chunkArb, { minLength: 1, maxLength: 3 }).map((c) => c.join(' '));

function ftsTable(texts: string[]): Database.Database {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')");
  const insert = db.prepare('INSERT INTO t (rowid, text) VALUES (?, ?)');
  texts.forEach((text, i) => {
    insert.run(i + 1, text);
  });
  return db;
}

describe('search: memory ranking against SQLite FTS5', () => {
  it('matches the same documents with the same bm25 score (property)', () => {
    fc.assert(
      fc.property(fc.array(textArb, { minLength: 1, maxLength: 8 }), queryArb, (texts, text) => {
        const query = parseSearchQuery(text);
        const db = ftsTable(texts);
        try {
          const fts = db
            .prepare('SELECT rowid, bm25(t) AS rank FROM t WHERE t MATCH ? ORDER BY rowid')
            .all(ftsExpression(query)) as { rowid: number; rank: number }[];
          const ours = rankDocs(
            texts.map((t, i) => ({ key: i + 1, text: t })),
            query,
          ).sort((a, b) => a.key - b.key);
          expect(ours.map((r) => r.key)).toStrictEqual(fts.map((r) => r.rowid));
          ours.forEach((r, i) => {
            expect(r.score).toBeCloseTo(-fts[i]!.rank, 9);
          });
        } finally {
          db.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('search queries and snippets', () => {
  it('reads chunks as phrases, quotes as phrases, a trailing * as a prefix', () => {
    expect(parseSearchQuery('src/index.ts "Push  to" auth* x').terms).toStrictEqual([
      { words: ['src', 'index', 'ts'], prefix: false },
      { words: ['push', 'to'], prefix: false },
      { words: ['auth'], prefix: true },
      { words: ['x'], prefix: false },
    ]);
    expect(ftsExpression(parseSearchQuery('a-b "c"* NOT'))).toBe('"a b" "c"* "not"');
  });

  it('folds case and accents the way the index does', () => {
    expect(tokenize('Ça  Zürich e\u0301t').map((t) => t.word)).toStrictEqual(['ca', 'zurich', 'et']);
  });

  it('refuses an empty query with a field name, and more than 32 terms', () => {
    expect(() => parseSearchQuery(' -- ')).toThrow(InputError);
    expect(() => parseSearchQuery(' -- ')).toThrow(/field query/);
    expect(() => parseSearchQuery(Array.from({ length: 33 }, (_, i) => `w${i}`).join(' '))).toThrow(
      /33 terms/,
    );
  });

  it('highlights every match in the excerpt and keeps edge punctuation when nothing is cut', () => {
    expect(snippet('(auth, then AUTH again)', parseSearchQuery('auth').terms)).toBe(
      '(«auth», then «AUTH» again)',
    );
    expect(snippet('push to main', parseSearchQuery('"to main"').terms)).toBe('push «to main»');
  });

  it('quotes the match in its sentence or line, where most of the terms meet', () => {
    const terms = (q: string) => parseSearchQuery(q).terms;
    const fact = 'Build passed. Tests ran fine. The staging deploy key is kestrel-4417. Rotate it.';
    expect(snippet(fact, terms('deploy key'))).toBe(
      '…The staging «deploy» «key» is kestrel-4417. Rotate it.',
    );
    expect(snippet('npm test\nok 12\nFAIL auth.test.ts', terms('fail'))).toBe('…«FAIL» auth.test.ts');
    // An early "Deploy" alone does not pull the excerpt away from where both terms occur.
    const notes = `Deploy notes.\n${'Step done; '.repeat(20)}\nThe staging deploy key is kestrel-4417.`;
    expect(snippet(notes, terms('deploy kestrel*'))).toBe('…The staging «deploy» key is «kestrel»-4417.');
    // Where the terms are closest, not the first window that holds them all.
    expect(
      snippet(`${'alpha beta gamma. '.repeat(5)}The key is kestrel-4417.`, terms('gamma kestrel*')),
    ).toBe('…alpha beta «gamma». The key is «kestrel»-4417.');
    // Without a sentence start in reach, the usual eight words before.
    expect(snippet(`${'a '.repeat(20)}needle`, terms('needle'))).toBe(`…${'a '.repeat(8)}«needle»`);
  });

  it('cuts huge words and gaps, so a hit in a megabyte output stays one short line', () => {
    const text = `${'-'.repeat(5_000)} needle ${'z'.repeat(100_000)} haystack`;
    const line = snippet(text, parseSearchQuery('needle').terms);
    expect(line).toBe(`${'-'.repeat(59)}…«needle»…`);
    const word = 'y'.repeat(1_000);
    expect(snippet(`${word}x ${word}`, parseSearchQuery(`${word}x`).terms)).toBe(`«${'y'.repeat(59)}…»…`);
  });
});
