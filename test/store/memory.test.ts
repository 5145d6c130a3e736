import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/store/memory.js';
import { describeStoreConformance } from './conformance.js';
import { commitAfter, sessionRecord, textEntries } from './fixtures.js';

describeStoreConformance('memory', () => memoryStore());

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
