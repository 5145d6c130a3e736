import type { Entry } from '../model/entry.js';
import { type EntryHit, entrySearchText, type SearchOptions, topHits } from './search.js';
import { parseSearchQuery, searchLimit } from './search-query.js';
import { rankDocs } from './search-rank.js';
import type { Store } from './store.js';

/**
 * `store.search` for a store without a full-text index (files): reads the sessions in scope and
 * ranks their entries as the memory store does (bm25 over what was read). Its cost follows what
 * is stored; it runs per search, never per turn.
 */
export async function scanSearch(
  store: Pick<Store, 'listSessions' | 'loadFrom'>,
  text: string,
  opts: SearchOptions = {},
): Promise<EntryHit[]> {
  const query = parseSearchQuery(text);
  const limit = searchLimit(opts.limit);
  const ids = opts.sessionId !== undefined ? [opts.sessionId] : (await store.listSessions()).map((s) => s.id);
  const docs: { key: Entry; text: string }[] = [];
  for (const id of ids)
    for (const entry of await store.loadFrom(id, 0)) docs.push({ key: entry, text: entrySearchText(entry) });
  return topHits(rankDocs(docs, query), query, limit);
}
