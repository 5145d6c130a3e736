import type { NewSession } from '../../src/store/store.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';

/** The sessions the crash child's `create` makes in one batch: three entries each. */
export const BATCH = ['run-1', 'run-2', 'run-3', 'run-4', 'run-5'];

export function batchSession(id: string): NewSession {
  const record = sessionRecord(id);
  const entries = textEntries(id, 3);
  return { record, initial: { entries, commit: commitAfter(record, entries) } };
}
