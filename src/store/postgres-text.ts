import { fold, type SearchQuery, WORD } from './search-query.js';

/**
 * Full-text values for Postgres, built here rather than by `to_tsvector`: Postgres's parser splits
 * words by its own rules (file names, hosts, the database locale's idea of a letter), so the words
 * a query looks for would not be the words search-query.ts reads. The store writes a `tsvector`
 * literal of exactly those words (folded, with positions) and queries it with a `tsquery` literal
 * of the parsed query; no dictionary, stemming or stop words are involved.
 */

/** Postgres's own limits: positions stop at 16,383, 256 per word, a word under 2 KB, a vector under 1 MB. */
export const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_WORD = 256;
const MAX_WORD_BYTES = 2_046;
const MAX_VECTOR_BYTES = 900_000;

export interface SearchVector {
  /** A `tsvector` literal. */
  vector: string;
  /** How many words the text has; past MAX_POSITION phrase positions are no longer exact. */
  words: number;
}

/**
 * The text's words as a `tsvector`. Words past position 16,383 all sit at that position (phrases
 * there match by their words; see phraseCheck), and words beyond Postgres's size limits are left
 * out rather than failing the write.
 */
export function searchVector(text: string): SearchVector {
  const positions = new Map<string, number[]>();
  const folded = new Map<string, string | null>();
  let bytes = 0;
  let words = 0;
  for (const m of text.matchAll(WORD)) {
    words++;
    let word = folded.get(m[0]);
    if (word === undefined) {
      word = fold(m[0]);
      if (Buffer.byteLength(word) > MAX_WORD_BYTES) word = null;
      folded.set(m[0], word);
    }
    if (word === null) continue;
    let list = positions.get(word);
    if (list === undefined) {
      const size = Buffer.byteLength(word) + 8;
      if (bytes + size > MAX_VECTOR_BYTES) continue;
      bytes += size;
      list = [];
      positions.set(word, list);
    }
    const at = Math.min(words, MAX_POSITION);
    if (list.length < MAX_POSITIONS_PER_WORD && list.at(-1) !== at) list.push(at);
  }
  const vector = [...positions].map(([word, at]) => `${lexeme(word)}:${at.join(',')}`).join(' ');
  return { vector, words };
}

/** The two `tsquery` literals of a parsed query. */
export interface SearchQueries {
  /** Every word of every term (the last of a prefix term as a prefix): the index's filter and the rank. */
  words: string;
  /** Each term as a phrase (`a <-> b`), all of them: exact within the first 16,383 words. */
  phrases: string;
}

export function searchQueries(query: SearchQuery): SearchQueries {
  const term = (words: string[], prefix: boolean, join: string) =>
    words.map((w, i) => `${lexeme(w)}${prefix && i === words.length - 1 ? ':*' : ''}`).join(join);
  return {
    words: query.terms.map((t) => term(t.words, t.prefix, ' & ')).join(' & '),
    phrases: query.terms.map((t) => `(${term(t.words, t.prefix, ' <-> ')})`).join(' & '),
  };
}

/** A quoted lexeme: words hold only letters, digits and marks, but quote and backslash are escaped anyway. */
function lexeme(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
