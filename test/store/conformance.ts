import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { batchConformance } from './conformance-batch.js';
import { readConformance } from './conformance-reads.js';
import { searchConformance } from './conformance-search.js';
import { valueConformance } from './conformance-values.js';
import { writeConformance } from './conformance-writes.js';

/** What each conformance group gets: the store under test, fresh for every test. */
export interface StoreHandle {
  store(): Store;
}

/**
 * One behaviour suite that every Store must pass unchanged (memory, sqlite, later postgres and
 * jsonl). `makeStore` must return an empty store; `cleanup` runs after the store is closed (e.g.
 * to delete its files).
 */
export function describeStoreConformance(
  name: string,
  makeStore: () => Promise<Store> | Store,
  cleanup?: (store: Store) => Promise<void> | void,
): void {
  describe(`${name} store conformance`, () => {
    let current: Store | undefined;
    const handle: StoreHandle = {
      store() {
        if (current === undefined) throw new Error('store not created yet');
        return current;
      },
    };

    beforeEach(async () => {
      current = await makeStore();
    });

    afterEach(async () => {
      const store = current;
      current = undefined;
      if (store === undefined) return;
      await store.close();
      await cleanup?.(store);
    });

    readConformance(handle);
    writeConformance(handle);
    valueConformance(handle);
    batchConformance(handle);
    searchConformance(handle);
  });
}
