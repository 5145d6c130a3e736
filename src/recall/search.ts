import { InputError } from '../model/errors.js';
import type { EntryHit, SearchOptions } from '../store/search.js';

/** What `history_search` reports of a hit: which entry, and the snippet the search cut. */
export type SearchHit = Pick<EntryHit, 'sessionId' | 'entryId' | 'seq' | 'snippet'>;

/**
 * Where `history_search` looks: by default the session's store (`store.search`: SQLite's FTS5
 * index, the memory store's ranking, a read of the JSONL files, any other store's own index), or
 * a search of your own that reads queries the same way (src/store/search-query.ts).
 */
export interface HistorySearch {
  search(query: string, opts?: SearchOptions): Promise<SearchHit[]>;
}

/**
 * A session's hits for a query, or the reason the query was refused (no word to look for) as
 * the tool's answer: bad input from the model is an answer for it to act on, not an exception.
 */
export async function searchSession(
  search: HistorySearch,
  sessionId: string,
  query: string,
  limit: number,
): Promise<SearchHit[] | { error: string }> {
  try {
    return await search.search(query, { sessionId, limit });
  } catch (error) {
    if (error instanceof InputError) return { error: error.message };
    throw error;
  }
}
