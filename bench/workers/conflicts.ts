import type { Store } from '../../src/store/store.js';
import { VersionConflictError } from '../../src/store/store.js';

/** The store, counting the version conflicts its writes raise: each one a write the Log computed again. */
export function conflictCounting(store: Store): { store: Store; conflicts: () => number } {
  let conflicts = 0;
  const counted =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } catch (error) {
        if (error instanceof VersionConflictError) conflicts++;
        throw error;
      }
    };
  const append = counted(store.append.bind(store));
  const updateParts = counted(store.updateParts.bind(store));
  // A proxy rather than a copy: a store built as a class keeps its prototype's methods.
  const wrapped = new Proxy(store, {
    get: (target, key, receiver) =>
      key === 'append' ? append : key === 'updateParts' ? updateParts : Reflect.get(target, key, receiver),
  });
  return { store: wrapped, conflicts: () => conflicts };
}
