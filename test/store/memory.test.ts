import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/store/memory.js';
import type { SearchOptions } from '../../src/store/search.js';
import { scanSearch } from '../../src/store/search-scan.js';
import { describeStoreConformance } from './conformance.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';
import { describeLedgerConformance } from './ledger-conformance.js';

describeStoreConformance('memory', () => memoryStore());
describeLedgerConformance('memory', () => memoryStore());
// The search a store without an index (JSONL files) can offer, on the same suite.
describeStoreConformance('memory with scanSearch', () => {
  const store = memoryStore();
  return { ...store, search: (query: string, opts?: SearchOptions) => scanSearch(store, query, opts) };
});

describe('memory store', () => {
  it('keeps sessions apart between instances', async () => {
    const a = memoryStore();
    const b = memoryStore();
    const record = sessionRecord('s1');
    await a.createSession(record);
    const entries = textEntries('s1', 3);
    await a.append(entries, commitAfter(record, entries));
    expect(await b.getSession('s1')).toBeUndefined();
    expect(await b.loadFrom('s1', 0)).toStrictEqual([]);
    expect(a.kind).toBe('memory');
  });
});
