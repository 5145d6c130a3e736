import type { Entry } from '../model/entry.js';
import { PAGE_SEQS } from '../store/pages.js';
import type { Store } from '../store/store.js';

/**
 * How much of a window a Log holds in memory: a window of more than `maxTokens` (a never-compacted
 * import, say) is held from its newest `tailTokens` on, and the rest is streamed from the store
 * when needed — by the compaction that the window's size makes due, or by `loadWhole`.
 */
export interface WindowBound {
  maxTokens: number;
  tailTokens: number;
}

/**
 * The newest entries of [fromSeq, toSeq) holding at least `tokens` tokens (all of them if fewer),
 * read backwards a page at a time, the first page sized by `tokensPerEntry` to need about one read.
 */
export async function readTail(
  store: Store,
  sessionId: string,
  range: { fromSeq: number; toSeq: number },
  tokens: number,
  tokensPerEntry: number,
): Promise<{ entries: Entry[]; fromSeq: number }> {
  const { fromSeq, toSeq } = range;
  const pages: Entry[][] = [];
  let held = 0;
  let width = Math.min(PAGE_SEQS, Math.ceil((1.25 * tokens) / Math.max(1, tokensPerEntry)) + 8);
  let start = toSeq;
  while (start > fromSeq && held < tokens) {
    const from = Math.max(fromSeq, start - width);
    const page = await store.loadFrom(sessionId, from, start);
    pages.push(page);
    for (const entry of page) held += entry.tokens;
    width = page.length < width / 2 ? width * 2 : PAGE_SEQS;
    start = from;
  }
  const entries: Entry[] = [];
  for (let i = pages.length - 1; i >= 0; i--) for (const entry of pages[i]!) entries.push(entry);
  return { entries, fromSeq: start };
}

/**
 * The window a session holds in memory: up to 4 model windows whole, else its newest 2 (enough for
 * any kept tail), the rest streamed by the compaction such a window makes due. Unlimited: all.
 */
export function windowBound(contextWindow: number): WindowBound | null {
  return contextWindow > 0 ? { maxTokens: 4 * contextWindow, tailTokens: 2 * contextWindow } : null;
}

/** activeEntries() on a window held only in part: the caller must read it all first. */
export class WindowNotHeldError extends Error {
  override name = 'WindowNotHeldError';
  constructor(sessionId: string, tokens: number) {
    super(
      `session ${sessionId}: its window (${tokens} tokens) is too large to hold in memory; ` +
        'prepare() or compact() condenses it, or `await session.loadWindow()` reads all of it first',
    );
  }
}
