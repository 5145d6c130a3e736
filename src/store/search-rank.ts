import { type SearchQuery, type SearchTerm, type Token, termMatches, tokenize } from './search-query.js';

/**
 * Ranking and snippets for stores without a full-text index (memory; a store reading its files).
 * The score is FTS5's bm25 (k1 1.2, b 0.75, same idf floor) with the sign flipped so that higher is
 * better, so an indexed store and a scanning one order clear-cut results alike.
 */
export interface RankedDoc<K> {
  key: K;
  score: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * Documents matching every term, best first (ties keep the input order). Corpus figures (count,
 * mean length, how many documents hold a term) come from every document given, as FTS5 takes them
 * from its whole table; `inScope` then picks which may be returned.
 */
export function rankDocs<K>(
  docs: Iterable<{ key: K; text: string }>,
  query: SearchQuery,
  inScope: (key: K) => boolean = () => true,
): RankedDoc<K>[] {
  const stats: { key: K; length: number; hits: number[] | null }[] = [];
  const holding = query.terms.map(() => 0);
  let totalLength = 0;
  for (const doc of docs) {
    const tokens = tokenize(doc.text);
    totalLength += tokens.length;
    const hits = query.terms.map((t) => termMatches(tokens, t).length);
    hits.forEach((n, i) => {
      if (n > 0) holding[i]! += 1;
    });
    const all = hits.every((n) => n > 0) && inScope(doc.key);
    stats.push({ key: doc.key, length: tokens.length, hits: all ? hits : null });
  }
  const n = stats.length;
  const mean = n === 0 ? 0 : totalLength / n;
  const idf = holding.map((h) => Math.max(Math.log((n - h + 0.5) / (h + 0.5)), 1e-6));
  const ranked: RankedDoc<K>[] = [];
  for (const s of stats) {
    if (s.hits === null) continue;
    const norm = K1 * (1 - B + (B * s.length) / (mean || 1));
    const score = s.hits.reduce((sum, tf, i) => sum + (idf[i]! * tf * (K1 + 1)) / (tf + norm), 0);
    ranked.push({ key: s.key, score });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

const BEFORE = 8;
const AFTER = 16;
/** Characters of context kept before the first match and after it, and of any one word or gap. */
const BEFORE_CHARS = 80;
const AFTER_CHARS = 160;
const PIECE_CHARS = 60;
export const HIGHLIGHT = { open: '«', close: '»' } as const;

/**
 * A one-line excerpt around the first match, matched words in «», "…" where text was cut (a
 * 40,000-character word or gap is cut too). Text with no match (an index that folds words
 * differently) gives its beginning.
 */
export function snippet(text: string, terms: readonly SearchTerm[]): string {
  const tokens = tokenize(text);
  if (tokens.length === 0) return clip(oneLine(text), AFTER_CHARS);
  const spans = mergedSpans(tokens, terms);
  const first = spans[0] ?? { from: 0, to: 1 };
  let from = first.from;
  while (
    from > 0 &&
    first.from - from < BEFORE &&
    tokens[first.from]!.start - tokens[from - 1]!.start <= BEFORE_CHARS
  )
    from--;
  let to = first.to;
  while (
    to < tokens.length &&
    to - first.from < AFTER &&
    tokens[to]!.end - tokens[first.to - 1]!.end <= AFTER_CHARS
  )
    to++;
  const opens = new Set(spans.map((x) => x.from));
  const closes = new Set(spans.map((x) => x.to - 1));
  let out = from === 0 ? clip(text.slice(0, tokens[0]!.start), PIECE_CHARS) : '…';
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (i > from) out += clip(text.slice(tokens[i - 1]!.end, t.start), PIECE_CHARS);
    if (opens.has(i)) out += HIGHLIGHT.open;
    out += clip(text.slice(t.start, t.end), PIECE_CHARS);
    if (closes.has(i)) out += HIGHLIGHT.close;
  }
  out += to === tokens.length ? clip(text.slice(tokens.at(-1)!.end), PIECE_CHARS) : '…';
  return oneLine(out);
}

/** Token ranges [from, to) of the term matches, in text order, overlapping ones merged. */
function mergedSpans(tokens: readonly Token[], terms: readonly SearchTerm[]): { from: number; to: number }[] {
  const spans = terms
    .flatMap((t) => termMatches(tokens, t).map((i) => ({ from: i, to: i + t.words.length })))
    .sort((a, b) => a.from - b.from);
  const merged: { from: number; to: number }[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.from < last.to) last.to = Math.max(last.to, span.to);
    else merged.push({ ...span });
  }
  return merged;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
