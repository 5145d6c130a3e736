import { type SearchQuery, termMatches, tokenize } from './search-query.js';

/**
 * Ranking for stores without a full-text index (memory; a store reading its files).
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
