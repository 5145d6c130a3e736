/**
 * The history CLI on seed 002's second-compaction scenario (written by the library into a SQLite
 * file, then read by the real `condense` process): history, tree, fork, search, and the events
 * ledger commands, with their errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/lineage/index.js';
import type { EntryHit, StoredEvent } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { nexus, secondCompaction, seedNames } from '../lineage/scenario.js';
import { type CliResult, cli, cliAsync, freshDb, json, ok, tempDir, writeFile } from './support.js';

const dir = tempDir();
const db = freshDb(dir);
let turns: Turn[];
let name: (t: Turn) => string;

beforeAll(async () => {
  const store = sqliteStore({ path: db });
  const session = await nexus(store);
  await secondCompaction(session);
  turns = await session.turns();
  name = seedNames(turns);
  await store.close();
});

const run = (...args: string[]) => cliAsync([...args, '--db', db]);
const failed = (r: CliResult, message: RegExp) => {
  expect(r.status, r.stdout).toBe(2);
  expect(r.stderr).toMatch(message);
};

describe('condense history and tree', () => {
  it('history lists every turn root to head, compactions included; --turn stops there', async () => {
    const [all, upTo, human, unknown] = await Promise.all([
      run('history', 'nexus', '--json'),
      run('history', 'nexus', '--turn', '3', '--json'),
      run('history', 'nexus'),
      run('history', 'nexus', '--turn', 'nope'),
    ]);
    expect(json<Turn[]>(ok(all)).map((t) => t.id)).toStrictEqual(turns.map((t) => t.id));
    expect(json<Turn[]>(ok(upTo)).map(name)).toStrictEqual(['turn-001', 'turn-002', 'turn-003']);
    const text = ok(human).stdout;
    expect(text).toMatch(
      /^#6\s+\S+\s+compaction\s+\d+\s+0\s+\S+\s+compaction: summarized through #3, kept #4…/m,
    );
    expect(text).toMatch(/^#10\s+\S+\s+compaction .*summarized through #7, kept #8…/m);
    expect(text).toMatch(/^#7\s+\S+\s+normal\s+121000\s+0\s+\S+\s+turn-006 query zzzz/m);
    failed(unknown, /session nexus has no turn 'nope'/);
  });

  it('forks in the preset’s mode by default, in the mode asked otherwise; tree shows the forks', async () => {
    const [summary, full, bad] = await Promise.all([
      run('fork', 'nexus', '--at', '2', '--preset', 'seed-002', '--json'),
      run('fork', 'nexus', '--at', turns[1]!.id, '--mode', 'full', '--as', 'nexus-full', '--json'),
      run('fork', 'nexus', '--at', '2', '--mode', 'sideways'),
    ]);
    expect(json(ok(summary))).toMatchObject({
      session: 'nexus-fork-1',
      from: 'nexus',
      atTurn: turns[1]!.id,
      mode: 'summary',
      turns: 3,
    });
    expect(json(ok(full))).toMatchObject({ session: 'nexus-full', mode: 'full', turns: 2 });
    failed(bad, /--mode must be one of summary, full, exact, got 'sideways'/);

    const [tree, treeJson, forkTree] = await Promise.all([
      run('tree', 'nexus'),
      run('tree', 'nexus', '--json'),
      run('tree', 'nexus-fork-1'),
    ]);
    const text = ok(tree).stdout;
    expect(text).toMatch(/^session nexus: 10 turns$/m);
    expect(text.match(/◆/g)).toHaveLength(2);
    // Both forks under turn #2 (made in parallel: in either order).
    const underTwo = /├─ ● #2 turn-002 query[^\n]*\n((?:│ {4}⑂[^\n]*\n)+)/
      .exec(text)?.[1]
      ?.trim()
      .split('\n')
      .sort();
    expect(underTwo).toStrictEqual(['│    ⑂ fork nexus-fork-1 (summary)', '│    ⑂ fork nexus-full (full)']);
    expect(text).toMatch(/└─ ◆ #10 compaction[^\n]*← head$/m);
    const shape = json<{ session: string; head: string; forks: { session: string }[] }>(ok(treeJson));
    expect(shape).toMatchObject({ session: 'nexus', head: turns.at(-1)!.id });
    expect(shape.forks.sort((a, b) => a.session.localeCompare(b.session))).toStrictEqual([
      { session: 'nexus-fork-1', atTurn: turns[1]!.id, mode: 'summary' },
      { session: 'nexus-full', atTurn: turns[1]!.id, mode: 'full' },
    ]);
    expect(ok(forkTree).stdout).toMatch(/^session nexus-fork-1 \(forked from nexus\): 3 turns$/m);
  });
});

describe('condense search', () => {
  it('finds summarized history by its own entries, in one session or all', async () => {
    const [all, one, none, empty] = await Promise.all([
      run('search', 'turn-001 response', '--json'),
      run('search', '"turn-007 query"', '--session', 'nexus', '--limit', '1', '--json'),
      run('search', 'turn-001', '--session', 'missing'),
      run('search', '  ?! '),
    ]);
    const hits = json<EntryHit[]>(ok(all));
    expect(hits.map((h) => h.sessionId).sort()).toStrictEqual(['nexus', 'nexus-full', 'nexus-fork-1'].sort());
    const original = hits.find((h) => h.sessionId === 'nexus')!;
    expect(original).toMatchObject({ role: 'assistant', seq: 1 });
    // Two terms, each highlighted where it matched.
    expect(original.snippet).toBe('«turn-001» «response»…');
    expect(json<EntryHit[]>(ok(one))).toMatchObject([{ sessionId: 'nexus', role: 'user' }]);
    failed(none, /no session 'missing'/);
    failed(empty, /search query " {2}\?! " has no words to look for/);
  });
});

describe('condense events', () => {
  it('adds events from flags and files, lists and searches them, and quotes them into a session', async () => {
    const added = ok(
      cli([
        'events',
        'add',
        '--channel',
        'discord',
        '--external-id',
        'm1',
        '--author',
        'alice',
        '--at',
        '2026-01-29T10:00:00Z',
        '--body',
        'the release train leaves at noon',
        '--db',
        db,
        '--json',
      ]),
    );
    const [first] = json<{ events: StoredEvent[] }>(added).events;
    expect(first).toMatchObject({ channel: 'discord', externalId: 'm1', at: Date.UTC(2026, 0, 29, 10) });

    const lines = [
      {
        channel: 'mail',
        externalId: 'x1',
        author: 'bob',
        at: '2026-01-29T11:00:00Z',
        body: 'release notes attached',
      },
      {
        channel: 'discord',
        externalId: 'm1',
        author: 'alice',
        at: Date.UTC(2026, 0, 29, 10),
        body: 'the release train leaves at noon',
      },
    ];
    const file = writeFile(dir, 'events.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'));
    const quoted = ok(cli(['events', 'add', '--file', file, '--session', 'nexus', '--db', db]));
    expect(quoted.stdout).toMatch(/^recorded 2 event\(s\) \(1 already in the ledger\)$/m);
    expect(quoted.stdout).toMatch(/^quoted in nexus by entry \S+$/m);

    const bad = writeFile(
      dir,
      'bad.jsonl',
      `${JSON.stringify(lines[0])}\n{"channel":"mail","externalId":"x2","author":"bob","at":"soon","body":"?"}\n`,
    );
    const [list, search, filtered, badRun, missing, history] = await Promise.all([
      run('events', 'list', '--json'),
      run('events', 'search', 'release', '--json'),
      run('events', 'search', 'release', '--channel', 'mail'),
      run('events', 'add', '--file', bad),
      run('events', 'add', '--channel', 'mail'),
      run('history', 'nexus', '--json'),
    ]);
    expect(json<StoredEvent[]>(ok(list)).map((e) => e.externalId)).toStrictEqual(['m1', 'x1']);
    expect(
      json<{ event: StoredEvent }[]>(ok(search))
        .map((h) => h.event.externalId)
        .sort(),
    ).toStrictEqual(['m1', 'x1']);
    expect(ok(filtered).stdout).toMatch(/mail\s+bob\s+«release» notes attached/);
    failed(badRun, /bad\.jsonl:line 2, field at: /);
    failed(missing, /events add needs --file, or --external-id, --author, --body/);
    const last = json<Turn[]>(ok(history)).at(-1)!;
    expect(last.queryMessages[0]!.metadata).toMatchObject({
      events: [
        { channel: 'mail', externalId: 'x1' },
        { channel: 'discord', externalId: 'm1', id: first!.id },
      ],
    });
  });
});
