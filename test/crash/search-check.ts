/**
 * The full-text index after a kill: a search finds exactly the stored entries whose text holds
 * the word now — none that a rolled-back write added, none whose output a prune erased — with
 * each hit where the entry is.
 */
import type { Entry } from '../../src/model/entry.js';
import { entrySearchText } from '../../src/store/search.js';
import type { Store } from '../../src/store/store.js';

const holds = (e: Entry, word: string) =>
  entrySearchText(e)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .includes(word);

export async function searchViolations(store: Store, word: string): Promise<string[]> {
  const expected = new Map<string, number>();
  for (const { id } of await store.listSessions())
    for (const e of await store.loadFrom(id, 0)) if (holds(e, word)) expected.set(`${id}/${e.id}`, e.seq);
  const hits = await store.search(word, { limit: 1000 });
  const found: string[] = [];
  for (const hit of hits) {
    const key = `${hit.sessionId}/${hit.entryId}`;
    if (expected.get(key) !== hit.seq)
      found.push(`search "${word}" found ${key} at seq ${hit.seq}, which holds no such word there`);
  }
  if (hits.length !== Math.min(expected.size, 1000))
    found.push(`search "${word}" found ${hits.length} entries, ${expected.size} hold the word`);
  return found;
}
