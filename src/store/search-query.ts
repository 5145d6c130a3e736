import { InputError } from '../model/errors.js';

/**
 * Full-text queries, read the same way by every store. Words are what SQLite FTS5's `unicode61`
 * tokenizer (with `remove_diacritics 2`) sees: runs of letters, digits and private-use characters,
 * compared without case or accents. A whitespace-separated chunk (or a "quoted phrase") is one
 * term whose words must appear next to each other — `src/index.ts` finds that path, not three
 * scattered words; a chunk ending in `*` matches its last word as a prefix. Every term must match.
 */
export interface SearchTerm {
  /** Folded words, in order. */
  words: string[];
  /** The last word matches as a prefix. */
  prefix: boolean;
}

export interface SearchQuery {
  text: string;
  terms: SearchTerm[];
}

export interface Token {
  /** The word folded (lower case, accents removed). */
  word: string;
  /** Its place in the original text, for snippets. */
  start: number;
  end: number;
}

/** One word, before folding. */
export const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\p{M}]*/gu;
const MAX_TERMS = 32;

/** Lower case without accents, as unicode61 with remove_diacritics compares words. */
export function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    tokens.push({ word: fold(m[0]), start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

/** Reads a query; one without any word to look for is bad input, not "no results". */
export function parseSearchQuery(text: string): SearchQuery {
  const terms: SearchTerm[] = [];
  for (const m of text.matchAll(/"([^"]*)"(\*?)|(\S+)/g)) {
    const chunk = m[1] ?? m[3]!;
    const prefix = m[1] !== undefined ? m[2] === '*' : chunk.endsWith('*');
    const words = tokenize(chunk).map((t) => t.word);
    if (words.length > 0) terms.push({ words, prefix });
  }
  if (terms.length === 0) {
    throw new InputError(`search query ${JSON.stringify(text)} has no words to look for`, { field: 'query' });
  }
  if (terms.length > MAX_TERMS) {
    throw new InputError(`search query has ${terms.length} terms; at most ${MAX_TERMS}`, { field: 'query' });
  }
  return { text, terms };
}

/** The query as an FTS5 MATCH expression: quoted phrases (no operator can be injected), ANDed. */
export function ftsExpression(query: SearchQuery): string {
  return query.terms.map((t) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`).join(' ');
}

/** Positions in `tokens` where `term` starts. */
export function termMatches(tokens: readonly Token[], term: SearchTerm): number[] {
  const { words, prefix } = term;
  const last = words.length - 1;
  const at: number[] = [];
  for (let i = 0; i + last < tokens.length; i++) {
    let ok = true;
    for (let k = 0; k <= last && ok; k++) {
      const word = tokens[i + k]!.word;
      ok = k === last && prefix ? word.startsWith(words[k]!) : word === words[k];
    }
    if (ok) at.push(i);
  }
  return at;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1_000;

/** A search's result count: default 20, a whole number from 1 to 1,000. */
export function searchLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new InputError(`search limit must be a whole number from 1 to ${MAX_LIMIT}, got ${limit}`, {
      field: 'limit',
    });
  }
  return limit;
}
