import { type SearchTerm, type Token, termMatches, tokenize } from './search-query.js';

/**
 * Snippets of found text. Every store cuts them here from the text it searched (none asks its
 * index for one), so SQLite, Postgres, memory and files quote a hit alike.
 */

/** Words of context kept before the match and after its start, and their limits in characters. */
const BEFORE = 8;
const AFTER = 16;
const BEFORE_CHARS = 80;
const AFTER_CHARS = 160;
/** Characters of any one word or gap, so a 40,000-character word cannot fill the line. */
const PIECE_CHARS = 60;
export const HIGHLIGHT = { open: '«', close: '»' } as const;

/** Where a sentence or line ends in the text between two words. */
const SENTENCE_END = /[.!?]["')\]]*\s|\n/;

/**
 * A one-line excerpt around the best match: the first place where most of the query's terms
 * occur together, from the start of its sentence (or line) when that is near, so an agent reads
 * the matched words in their sentence. Matched words are in «», "…" marks cut text. Text with no
 * match (an index that folds words differently) gives its beginning.
 */
export function snippet(text: string, terms: readonly SearchTerm[]): string {
  const tokens = tokenize(text);
  if (tokens.length === 0) return clip(oneLine(text), AFTER_CHARS);
  const matches = termStarts(tokens, terms);
  const spans = mergedSpans(matches);
  const anchor = bestAnchor(matches);
  const first = spans.find((s) => s.to > anchor) ?? { from: 0, to: 1 };
  const from = sentenceStart(text, tokens, first.from);
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

/** A term's match: token range [from, to) and which term it is. */
interface Match {
  from: number;
  to: number;
  term: number;
}

/** Every term's matches, in text order. */
function termStarts(tokens: readonly Token[], terms: readonly SearchTerm[]): Match[] {
  return terms
    .flatMap((t, term) => termMatches(tokens, t).map((i) => ({ from: i, to: i + t.words.length, term })))
    .sort((a, b) => a.from - b.from);
}

/**
 * The token where the excerpt is anchored: the match whose window (the words an excerpt shows
 * after it) holds the most distinct terms, and holds them closest together; the first such. A
 * word of the query that also occurs elsewhere on its own (a heading, a file name) does not pull
 * the excerpt away from where the terms meet.
 */
function bestAnchor(matches: readonly Match[]): number {
  let best = { at: 0, terms: 0, reach: 0 };
  for (let i = 0; i < matches.length; i++) {
    const at = matches[i]!.from;
    const seen = new Set<number>();
    let reach = 0;
    for (let j = i; j < matches.length && matches[j]!.from - at < AFTER; j++) {
      if (seen.has(matches[j]!.term)) continue;
      seen.add(matches[j]!.term);
      reach = matches[j]!.from - at;
    }
    if (seen.size > best.terms || (seen.size === best.terms && reach < best.reach))
      best = { at, terms: seen.size, reach };
  }
  return best.at;
}

/**
 * The first word shown: up to BEFORE words (BEFORE_CHARS characters) before the match, from the
 * nearest sentence or line start among them when there is one.
 */
function sentenceStart(text: string, tokens: readonly Token[], match: number): number {
  let from = match;
  while (from > 0 && match - from < BEFORE && tokens[match]!.start - tokens[from - 1]!.start <= BEFORE_CHARS)
    from--;
  for (let k = match; k > from; k--) {
    if (SENTENCE_END.test(text.slice(tokens[k - 1]!.end, tokens[k]!.start))) return k;
  }
  return from;
}

/** Token ranges [from, to) of the matches, overlapping ones merged. */
function mergedSpans(matches: readonly Match[]): { from: number; to: number }[] {
  const merged: { from: number; to: number }[] = [];
  for (const { from, to } of matches) {
    const last = merged.at(-1);
    if (last && from < last.to) last.to = Math.max(last.to, to);
    else merged.push({ from, to });
  }
  return merged;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
