import type { Store } from '../src/store/store.js';

/** A store that counts the entry rows its reads return: the "rows read" of a benchmark row. */
export function countingStore(store: Store): { store: Store; rows: () => number } {
  let rows = 0;
  const counted: Store = {
    kind: store.kind,
    createSession: (record, initial) => store.createSession(record, initial),
    createSessions: (sessions) => store.createSessions(sessions),
    getSession: (id) => store.getSession(id),
    listSessions: () => store.listSessions(),
    append: (entries, commit) => store.append(entries, commit),
    updateParts: (updates, commit) => store.updateParts(updates, commit),
    async loadFrom(...args: Parameters<Store['loadFrom']>) {
      const entries = await store.loadFrom(...args);
      rows += entries.length;
      return entries;
    },
    async getEntry(sessionId, entryId) {
      const entry = await store.getEntry(sessionId, entryId);
      if (entry !== undefined) rows++;
      return entry;
    },
    search: (text, opts) => store.search(text, opts),
    deleteSession: (id) => store.deleteSession(id),
    close: () => store.close(),
  };
  return { store: counted, rows: () => rows };
}
