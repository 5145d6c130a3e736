import type { Entry } from '../model/entry.js';
import type { Store } from './store.js';

/** Entries a streamed page holds at most. */
export const PAGE_SEQS = 1_000;

/**
 * Tokens a streamed page holds, about (some hundreds of KB of rows). A page stays alive while it
 * is read and analysed, and one much larger than V8's young generation (16 MB) is copied by every
 * collection that strikes meanwhile: 1,000-seq pages of a coding session's fat tool outputs spent
 * 0.6 s of a 100,000-message compaction collecting garbage, pages of this size under 0.2 s.
 */
export const PAGE_TOKENS = 131_072;

/** The first page's width, before the window's density is known. */
const FIRST_PAGE_SEQS = 8;

/**
 * The next page's width from what the last one held: about PAGE_TOKENS tokens and PAGE_SEQS
 * entries at its density, at most twice as wide, so a gap in the seqs (which imports and forks
 * leave) is crossed in a few reads, not one per missing seq. The page just past a gap is as wide
 * as the reads that crossed it, so only that one page is bounded by the gap, not by its tokens.
 */
function nextPageWidth(width: number, read: { entries: number; tokens: number }): number {
  const byTokens = (width * PAGE_TOKENS) / Math.max(1, read.tokens);
  const byEntries = (width * PAGE_SEQS) / Math.max(1, read.entries);
  return Math.max(1, Math.round(Math.min(2 * width, byTokens, byEntries)));
}

/**
 * The entries of [fromSeq, toSeq) a page at a time, oldest first, each row read once: the store's
 * own stream where it has one (Store.loadPages), else ranges sized by nextPageWidth.
 */
export function pagesForward(
  store: Store,
  sessionId: string,
  fromSeq: number,
  toSeq: number,
): AsyncIterable<Entry[]> {
  return store.loadPages?.(sessionId, fromSeq, toSeq) ?? rangesForward(store, sessionId, fromSeq, toSeq);
}

async function* rangesForward(
  store: Store,
  sessionId: string,
  fromSeq: number,
  toSeq: number,
): AsyncGenerator<Entry[]> {
  let width = FIRST_PAGE_SEQS;
  for (let from = fromSeq; from < toSeq; ) {
    const to = Math.min(toSeq, from + width);
    const page = await store.loadFrom(sessionId, from, to);
    let tokens = 0;
    for (const entry of page) tokens += entry.tokens;
    if (page.length > 0) yield page;
    width = nextPageWidth(to - from, { entries: page.length, tokens });
    from = to;
  }
}
