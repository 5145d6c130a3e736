/** The JSONL store's files: seed 003's layout and lines, archive names, bad lines, escaping. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import { InputError } from '../../src/model/errors.js';
import type { SessionRecord } from '../../src/model/session.js';
import { folderName, type JsonlStore, jsonlStore } from '../../src/store/jsonl.js';
import { VersionConflictError } from '../../src/store/store.js';
import { commitAfter, entryAt, pivotEntry, richEntries, sessionRecord, textEntries } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fresh(): { store: JsonlStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'condense-jsonl-files-'));
  dirs.push(dir);
  return { store: jsonlStore({ dir }), dir };
}

const at = (iso: string) => Date.parse(iso);

/** Appends `entries` to `s1` and returns the new record. */
async function add(store: JsonlStore, record: SessionRecord, entries: Entry[]): Promise<SessionRecord> {
  return store.append(entries, commitAfter(record, entries));
}

function pivotAt(seq: number, id: string, createdAt: number, summary = 'Summary: we did things'): Entry {
  const pivot = pivotEntry('s1', seq, id, `s1-e${seq - 1}`, `s1-e${seq - 1}`);
  return { ...pivot, createdAt, pivot: { ...pivot.pivot, summary, firstKeptId: null } } as Entry;
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('seed 003 layout', () => {
  it('a compaction archives current.jsonl under its UTC time and starts a new one with the summary line', async () => {
    const { store, dir } = fresh();
    let record = sessionRecord('s1');
    await store.createSession(record);
    record = await add(store, record, textEntries('s1', 3));
    record = await add(store, record, [pivotAt(3, 'p1', at('2026-02-25T14:30:00.250Z'))]);
    record = await add(store, record, textEntries('s1', 2, 4));
    const folder = join(dir, 's1');
    expect(readdirSync(folder).sort()).toEqual([
      '20260225T143000.jsonl',
      'archives.json',
      'current.jsonl',
      'session.json',
      // Held by the store writing the session, until it is closed (jsonl-lock.ts).
      'writer.lock',
    ]);
    const [summary, ...rest] = lines(join(folder, 'current.jsonl'));
    // Seed 003's line, keys in its order (A003-14), ts in Unix seconds (A003-05).
    expect(Object.keys(summary)).toEqual(['ts', 'role', 'content', 'metadata', 'condense']);
    expect(summary).toMatchObject({
      ts: 1772029800,
      role: 'system',
      content: 'Summary: we did things',
      metadata: { type: 'compact', previousSession: '20260225T143000.jsonl' },
    });
    expect(rest.map((l) => [l.role, l.content])).toEqual([
      ['user', 'message 4'],
      ['assistant', 'message 5'],
    ]);
    expect(lines(join(folder, '20260225T143000.jsonl')).map((l) => l.content)).toEqual([
      'message 0',
      'message 1',
      'message 2',
    ]);
    expect(await store.archiveOf('s1', 'p1')).toBe('20260225T143000.jsonl');
    expect(await store.loadFrom('s1', 0)).toHaveLength(6);
  });

  it('never overwrites an archive: compactions in one second get -1, -2; older archives are kept', async () => {
    const { store, dir } = fresh();
    let record = sessionRecord('s1');
    await store.createSession(record);
    const second = at('2026-02-25T14:30:00Z');
    let seq = 0;
    for (const [i, ms] of [0, 100, 900, 1_000].entries()) {
      record = await add(store, record, textEntries('s1', 2, seq));
      record = await add(store, record, [pivotAt(seq + 2, `p${i}`, second + ms)]);
      seq += 3;
    }
    const folder = join(dir, 's1');
    const names = [
      '20260225T143000.jsonl',
      '20260225T143000-1.jsonl',
      '20260225T143000-2.jsonl',
      '20260225T143001.jsonl',
    ];
    expect(readdirSync(folder).filter((f) => /^\d{8}T/.test(f))).toEqual(expect.arrayContaining(names));
    // Each summary names the archive made just before it: a chain back through every file.
    for (const [i, name] of names.entries()) expect(await store.archiveOf('s1', `p${i}`)).toBe(name);
    expect(
      JSON.parse(readFileSync(join(folder, 'archives.json'), 'utf8')).map((a: { name: string }) => a.name),
    ).toEqual(names);
    // Every entry stays readable across the archives, in seq order.
    expect((await store.loadFrom('s1', 0)).map((e) => e.seq)).toEqual([...Array(12).keys()]);
  });

  it('a session created with pivots among its first entries (a fork, an import) is laid out the same way', async () => {
    const { store, dir } = fresh();
    const entries = [
      ...textEntries('s1', 2),
      pivotAt(2, 'p1', at('2025-01-01T00:00:00Z')),
      ...textEntries('s1', 2, 3),
    ];
    const record = sessionRecord('s1');
    await store.createSession(record, { entries, commit: commitAfter(record, entries) });
    expect(await store.loadFrom('s1', 0)).toStrictEqual(entries);
    expect(lines(join(dir, 's1', '20250101T000000.jsonl'))).toHaveLength(2);
    expect(lines(join(dir, 's1', 'current.jsonl'))[0].metadata.previousSession).toBe('20250101T000000.jsonl');
  });

  it('loadFrom past the archives does not read them: a damaged old archive does not stop a turn', async () => {
    const { store, dir } = fresh();
    let record = sessionRecord('s1');
    await store.createSession(record);
    record = await add(store, record, textEntries('s1', 3));
    record = await add(store, record, [pivotAt(3, 'p1', at('2026-01-01T00:00:00Z'))]);
    record = await add(store, record, textEntries('s1', 2, 4));
    writeFileSync(join(dir, 's1', '20260101T000000.jsonl'), '{broken\n');
    expect((await store.loadFrom('s1', 3)).map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(await store.getEntry('s1', 's1-e4')).toBeDefined();
    await expect(store.loadFrom('s1', 0)).rejects.toThrow(/20260101T000000\.jsonl:line 1: not a JSON line/);
    // A window streamed a page at a time reads the same files and names the same line.
    const streamed = async (fromSeq: number) => {
      const seqs: number[] = [];
      for await (const page of store.loadPages('s1', fromSeq, 6)) for (const e of page) seqs.push(e.seq);
      return seqs;
    };
    expect(await streamed(3)).toEqual([3, 4, 5]);
    await expect(streamed(0)).rejects.toThrow(/20260101T000000\.jsonl:line 1: not a JSON line/);
    rmSync(join(dir, 's1', '20260101T000000.jsonl'));
    await expect(store.loadFrom('s1', 0)).rejects.toThrow(
      /20260101T000000\.jsonl: missing: the session folder lost a file/,
    );
    await expect(streamed(0)).rejects.toThrow(
      /20260101T000000\.jsonl: missing: the session folder lost a file/,
    );
  });

  it('parts are replaced where the entry is, an archive included, and nowhere else', async () => {
    const { store, dir } = fresh();
    let record = sessionRecord('s1');
    await store.createSession(record);
    record = await add(store, record, richEntries('s1').slice(0, 2));
    record = await add(store, record, [pivotAt(2, 'p1', at('2026-01-01T00:00:00Z'))]);
    const archive = join(dir, 's1', '20260101T000000.jsonl');
    const current = readFileSync(join(dir, 's1', 'current.jsonl'), 'utf8');
    const parts = [{ type: 'text' as const, text: 'cleared' }];
    record = await store.updateParts(
      [{ entryId: 's1-rich1', parts, partTokens: [3], tokens: 7 }],
      commitAfter(record),
    );
    expect(lines(archive)[1]).toMatchObject({ content: 'cleared', condense: { id: 's1-rich1', tokens: 7 } });
    expect(readFileSync(join(dir, 's1', 'current.jsonl'), 'utf8')).toBe(current);
    expect(readdirSync(join(dir, 's1')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect((await store.getEntry('s1', 's1-rich1'))?.partTokens).toEqual([3]);
  });
});

describe('reading what is on disk', () => {
  it('a bad line names its file, line and field', async () => {
    const { store, dir } = fresh();
    const record = sessionRecord('s1');
    await store.createSession(record);
    await add(store, record, textEntries('s1', 3));
    const file = join(dir, 's1', 'current.jsonl');
    const [a, b, c] = readFileSync(file, 'utf8').trimEnd().split('\n');
    const bad = (line: string) => writeFileSync(file, `${a}\n${line}\n${c}\n`);
    const error = async () => store.loadFrom('s1', 0).catch((e: unknown) => e);

    bad(b!.replace('"seq":1', '"seq":"one"'));
    expect(await error()).toBeInstanceOf(InputError);
    expect(await error()).toMatchObject({ file, line: 2, field: 'condense.seq' });
    bad(b!.replace('"content":"message 1"', '"content":[{"type":"tool","callId":"c"}]'));
    expect(await error()).toMatchObject({ line: 2, field: 'content[0]' });
    bad(b!.replace('"role":"assistant"', '"role":"assistent"'));
    expect(await error()).toMatchObject({ line: 2, field: 'role' });
    writeFileSync(file, `${a}\n`);
    expect(String(await error())).toMatch(/current\.jsonl: \d+ bytes, fewer than the \d+ published/);
  });

  it('a write through a second store on the same folder sees the version the first one wrote', async () => {
    const { store, dir } = fresh();
    const other = jsonlStore({ dir });
    const record = sessionRecord('s1');
    await store.createSession(record);
    await add(store, record, textEntries('s1', 2));
    const late = textEntries('s1', 1, 2);
    await expect(other.append(late, commitAfter(record, late))).rejects.toBeInstanceOf(VersionConflictError);
    expect(await other.loadFrom('s1', 0)).toStrictEqual(textEntries('s1', 2));
  });

  it('after a restart, duplicates are found by the top-level key of each line, not by look-alikes inside', async () => {
    const { store, dir } = fresh();
    let record = sessionRecord('s1');
    await store.createSession(record);
    const [first] = textEntries('s1', 1);
    const decoy = { condense: { id: 'decoy', seq: 99 } };
    const tricky = { ...first!, message: { ...first!.message, metadata: decoy } } as Entry;
    const pivot = pivotAt(1, 'p1', at('2026-01-01T00:00:00Z'));
    if (pivot.kind === 'compaction') pivot.pivot.details.extra = decoy;
    record = await add(store, record, [tricky, pivot]);
    const restarted = jsonlStore({ dir });
    const clash = entryAt('s1', 2, 's1-e0');
    await expect(restarted.append([clash], commitAfter(record, [clash]))).rejects.toMatchObject({
      field: 'id',
    });
    const seqClash = entryAt('s1', 1, 'fresh');
    await expect(restarted.append([seqClash], commitAfter(record, [seqClash]))).rejects.toMatchObject({
      field: 'seq',
    });
    const fine = [entryAt('s1', 2, 'decoy'), entryAt('s1', 99, 'other')];
    expect((await restarted.append(fine, commitAfter(record, fine))).version).toBe(record.version + 1);
  });

  it('escapes any session id to one folder name of its own', async () => {
    expect(folderName('chat-1_a.b')).toBe('chat-1_a.b');
    expect(folderName('../x')).toBe('%2E.%2Fx');
    expect(folderName('a/b c')).toBe('a%2Fb%20c');
    expect(folderName('日本')).toBe('%E6%97%A5%E6%9C%AC');
    const { store, dir } = fresh();
    for (const id of ['../escape', 'a/b', '.hidden', '日本']) {
      const record = sessionRecord(id);
      await store.createSession(record);
      await add(store, record, textEntries(id, 1));
      expect((await store.loadFrom(id, 0))[0]?.sessionId).toBe(id);
    }
    // Anything else in the folder (a stray file, a folder without session.json) is not a session.
    writeFileSync(join(dir, 'notes.txt'), 'x');
    mkdirSync(join(dir, 'empty'));
    expect((await store.listSessions()).map((s) => s.id).sort()).toEqual([
      '../escape',
      '.hidden',
      'a/b',
      '日本',
    ]);
    expect(readdirSync(dir).every((name) => !name.startsWith('.'))).toBe(true);
  });
});
