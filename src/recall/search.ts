import type { Entry } from '../model/entry.js';
import type { Store } from '../store/store.js';
import { entryText, fold, type Token, tokenize } from './text.js';

/** One entry that matched: which, and the text around the match. */
export interface SearchHit {
  sessionId: string;
  entryId: string;
  seq: number;
  snippet: string;
}

export interface SearchOptions {
  /** Only this session (default: every session of the store). */
  sessionId?: string;
  /** Most hits returned (default 10). */
  limit?: number;
}

/**
 * Full-text search over stored entries, as `history_search` needs it. A store with its own index
 * (SQLite FTS5, Postgres) provides this; `scanSearch` is the same search done by reading.
 */
export interface HistorySearch {
  search(query: string, opts?: SearchOptions): Promise<SearchHit[]>;
}

/**
 * The search `history_search` runs: a scan of what the store holds, whose snippets quote the
 * matched words in their sentence. (Stores' own indexed search, `store.search`, marks matches
 * differently; moving the tool onto it is left for when their snippets agree.)
 */
export function searchOf(store: Store): HistorySearch {
  return scanSearch(store);
}

/** A query that holds no word to look for. */
export class EmptyQueryError extends Error {
  override name = 'EmptyQueryError';
}

/** Words that must follow each other; the last may be a prefix (`migrat*`). */
interface Clause {
  words: string[];
  prefix: boolean;
}

/**
 * FTS5's basic syntax: every term must occur (AND), `"quoted words"` in a row, `term*` as a
 * prefix; case and accents do not matter.
 */
export function parseQuery(query: string): Clause[] {
  const clauses: Clause[] = [];
  for (const match of query.matchAll(/"([^"]*)"(\*?)|(\S+)/g)) {
    const raw = match[1] ?? match[3] ?? '';
    const words = tokenize(raw).map((t) => t.word);
    if (words.length > 0) clauses.push({ words, prefix: match[2] === '*' || /\*$/.test(match[3] ?? '') });
  }
  if (clauses.length === 0)
    throw new EmptyQueryError(`the query ${JSON.stringify(query)} has no word to search for`);
  return clauses;
}

/** Token indexes where a clause starts in `tokens`. */
function occurrences(tokens: readonly Token[], clause: Clause): number[] {
  const found: number[] = [];
  const last = clause.words.length - 1;
  for (let i = 0; i + last < tokens.length; i++) {
    const fits = clause.words.every((word, k) => {
      const token = tokens[i + k]!.word;
      return k === last && clause.prefix ? token.startsWith(word) : token === word;
    });
    if (fits) found.push(i);
  }
  return found;
}

const BEFORE = 60;
const AFTER = 120;

/** The text around a match, whitespace collapsed, `…` where it was cut. */
function snippet(text: string, at: number, end: number): string {
  const from = Math.max(0, at - BEFORE);
  const to = Math.min(text.length, end + AFTER);
  const body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}

/** How an entry matches a query: undefined if some clause is missing, else a score and a snippet. */
function matchEntry(
  entry: Entry,
  clauses: readonly Clause[],
): { score: number; snippet: string } | undefined {
  const text = entryText(entry);
  // Cheap first: an entry whose folded text lacks a query word cannot match; most entries stop here.
  const folded = fold(text);
  if (!clauses.every((c) => c.words.every((w) => folded.includes(w)))) return undefined;
  const tokens = tokenize(text);
  let score = 0;
  let first: number | undefined;
  for (const clause of clauses) {
    const found = occurrences(tokens, clause);
    if (found.length === 0) return undefined;
    score += found.length;
    first = first === undefined ? found[0] : Math.min(first, found[0]!);
  }
  const start = tokens[first!]!;
  return { score, snippet: snippet(text, start.at, start.end) };
}

/** Search by reading every entry: for stores without an index. Cost grows with history; it runs per call, never per turn. */
export function scanSearch(store: Store): HistorySearch {
  return {
    async search(query, opts = {}) {
      const clauses = parseQuery(query);
      const ids =
        opts.sessionId !== undefined ? [opts.sessionId] : (await store.listSessions()).map((s) => s.id);
      const hits: (SearchHit & { score: number })[] = [];
      for (const sessionId of ids) {
        for (const entry of await store.loadFrom(sessionId, 0)) {
          const match = matchEntry(entry, clauses);
          if (match)
            hits.push({
              sessionId,
              entryId: entry.id,
              seq: entry.seq,
              snippet: match.snippet,
              score: match.score,
            });
        }
      }
      // Most occurrences first, then the newest.
      hits.sort((a, b) => b.score - a.score || b.seq - a.seq);
      return hits.slice(0, opts.limit ?? 10).map(({ score: _score, ...hit }) => hit);
    },
  };
}
