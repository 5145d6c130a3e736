/**
 * The disk fills up in the middle of a JSONL write. Simulated with /dev/full (every write to it
 * fails with ENOSPC) standing at the name the write puts a file aside under. The write must end
 * in the store's own error naming the session, leave no `*.tmp` behind and no unpublished lines,
 * change nothing that was stored, and the next write must work once there is room.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import type { SessionRecord } from '../../src/model/session.js';
import { StoreWriteError } from '../../src/store/errors.js';
import { type JsonlStore, jsonlStore } from '../../src/store/jsonl.js';
import { commitAfter, pivotEntry, sessionRecord, textEntries } from './fixtures.js';

const FULL = '/dev/full';
const temp = mkdtempSync(join(tmpdir(), 'condense-jsonl-full-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

type Write = (store: JsonlStore, record: SessionRecord) => Promise<SessionRecord>;
const append =
  (entries: Entry[]): Write =>
  (store, record) =>
    store.append(entries, commitAfter(record, entries));

const cases: [string, string, Write][] = [
  ['an append', 'session.json.tmp', append(textEntries('s1', 1, 3))],
  [
    'a compaction (archive rotation)',
    'rotate-0.jsonl.tmp',
    append([{ ...pivotEntry('s1', 3, 'p1', 's1-e2', 's1-e2'), createdAt: Date.UTC(2026, 0, 1) }]),
  ],
  [
    'a prune (parts rewritten)',
    'current.jsonl.tmp',
    (store, record) =>
      store.updateParts(
        [{ entryId: 's1-e1', parts: [{ type: 'text', text: 'cleared' }], partTokens: [2], tokens: 2 }],
        commitAfter(record),
      ),
  ],
];

describe.skipIf(!existsSync(FULL))('JSONL store: the disk fills up mid-write', () => {
  it.each(cases)(
    '%s: the store error, nothing left aside, the session as it was',
    async (_name, aside, write) => {
      const dir = join(temp, aside);
      const store = jsonlStore({ dir });
      const folder = join(dir, 's1');
      let record = sessionRecord('s1');
      await store.createSession(record);
      record = await store.append(textEntries('s1', 3), commitAfter(record, textEntries('s1', 3)));
      const before = {
        entries: await store.loadFrom('s1', 0),
        current: readFileSync(join(folder, 'current.jsonl')),
      };

      symlinkSync(FULL, join(folder, aside));
      const error = await write(store, record).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreWriteError);
      expect((error as Error).message).toMatch(
        /^session s1: the write failed and nothing was written \(ENOSPC/,
      );
      expect(readdirSync(folder).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      expect(readFileSync(join(folder, 'current.jsonl'))).toEqual(before.current);
      expect(statSync(join(folder, 'current.jsonl')).size).toBe(
        JSON.parse(readFileSync(join(folder, 'session.json'), 'utf8')).current.bytes,
      );
      expect(await store.loadFrom('s1', 0)).toEqual(before.entries);
      expect((await store.getSession('s1'))?.version).toBe(record.version);

      // Room again: the same write goes through.
      const after = await write(store, record);
      expect(after.version).toBe(record.version + 1);
      await store.close();
    },
  );
});
