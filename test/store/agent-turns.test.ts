/**
 * Seed 002's SQL on the SQLite store: the agent_turns view has the seed's columns in the seed's
 * order, the seed's own CREATE TABLE / CREATE INDEX run verbatim and take the view's rows, and the
 * seed's traversals written as recursive SQL give the seed's answers. The view and the JavaScript
 * turn view agree on a log with every boundary case.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCompactionEntry, buildMessageEntry } from '../../src/model/build.js';
import type { Entry, Message } from '../../src/model/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { expectedRows, viewRows } from '../lineage/rows.js';
import { nexus, secondCompaction, seedNames } from '../lineage/scenario.js';
import { commitAfter, estimator, sessionRecord } from './fixtures.js';
import { tempDir } from './sqlite-helpers.js';

const seedsDir = new URL('../../../shared/seeds/', import.meta.url);

/** The seed's ```sql block, verbatim. */
function seedSql(): string {
  const name = readdirSync(seedsDir).find((f) => f.startsWith('002_'))!;
  const text = readFileSync(new URL(name, seedsDir), 'utf8');
  return /```sql\n([\s\S]*?)```/.exec(text)![1]!;
}

/** Column names of the seed's CREATE TABLE agent_turns, in order. */
function seedColumns(sql: string): string[] {
  const body = /CREATE TABLE agent_turns \(([\s\S]*?)\n\);/.exec(sql)![1]!;
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^[a-z_]+ [A-Z]/.test(line))
    .map((line) => line.split(' ')[0]!);
}

const FULL_HISTORY = `
  WITH RECURSIVE up(id, parent_turn_id, depth) AS (
    SELECT id, parent_turn_id, 0 FROM agent_turns WHERE id = ?
    UNION ALL
    SELECT p.id, p.parent_turn_id, up.depth + 1 FROM up JOIN agent_turns p ON p.id = up.parent_turn_id
  )
  SELECT id FROM up ORDER BY depth DESC`;

/** getSummarizedTurns: back from summarized_through_turn_id, stopping at the previous compaction. */
const SUMMARIZED = `
  WITH RECURSIVE walk(id, parent_turn_id, turn_type, depth) AS (
    SELECT t.id, t.parent_turn_id, t.turn_type, 0 FROM agent_turns t
    WHERE t.id = (SELECT summarized_through_turn_id FROM agent_turns WHERE id = ?)
    UNION ALL
    SELECT p.id, p.parent_turn_id, p.turn_type, w.depth + 1
    FROM walk w JOIN agent_turns p ON p.id = w.parent_turn_id
    WHERE w.turn_type <> 'compaction'
  )
  SELECT id FROM walk ORDER BY depth DESC`;

describe('agent_turns: seed 002 SQL on the SQLite store', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function fresh() {
    const t = tempDir();
    const store = sqliteStore({ path: t.dbPath });
    cleanups.push(t.remove, () => store.close());
    return { store, path: t.dbPath };
  }

  function raw(path: string, readonly = true): Database.Database {
    const db = new Database(path, { readonly });
    cleanups.push(() => {
      db.close();
    });
    return db;
  }

  it.skipIf(!existsSync(seedsDir))(
    'runs the seed’s own DDL and traversals on the second-compaction scenario',
    async () => {
      const { store, path } = fresh();
      const session = await nexus(store);
      await secondCompaction(session);
      const lineage = await session.lineage();
      const name = seedNames(lineage.turns());
      const byName = (n: string) => lineage.turns().find((t) => name(t) === n)!.id;
      const names = (rows: { id: string }[]) => rows.map((r) => name(lineage.turn(r.id)));

      const db = raw(path);
      const sql = seedSql();
      const columns = (db.prepare('PRAGMA table_info(agent_turns)').all() as { name: string }[]).map(
        (c) => c.name,
      );
      expect(columns).toStrictEqual(seedColumns(sql));
      expect(viewRows(db, 'nexus')).toStrictEqual(
        expectedRows(await session.history(), 'nexus', 'nexus-model'),
      );

      // The seed's CREATE TABLE and CREATE INDEX, verbatim, filled from the view.
      const seed = new Database(':memory:');
      cleanups.push(() => {
        seed.close();
      });
      // The table it references is in a document the seed does not include: its key is enough. With
      // foreign keys enforced, every parent, summarized and kept turn the view names must exist.
      seed.pragma('foreign_keys = ON');
      seed.exec('CREATE TABLE agent_sessions (id TEXT PRIMARY KEY)');
      seed.exec(sql);
      seed.prepare('ATTACH DATABASE ? AS condense').run(path);
      seed.exec('INSERT INTO agent_sessions SELECT id FROM condense.sessions');
      seed.exec('INSERT INTO agent_turns SELECT * FROM condense.agent_turns');
      expect(seed.prepare('SELECT COUNT(*) AS n FROM agent_turns').get()).toStrictEqual({ n: 10 });
      for (const target of [seed, db]) {
        expect(
          names(target.prepare(SUMMARIZED).all(byName('compact-002')) as { id: string }[]),
        ).toStrictEqual(['compact-001', 'turn-006']);
        expect(
          names(target.prepare(SUMMARIZED).all(byName('compact-001')) as { id: string }[]),
        ).toStrictEqual(['turn-001', 'turn-002', 'turn-003']);
        const history = target.prepare(FULL_HISTORY).all(byName('compact-002')) as { id: string }[];
        expect(history.map((r) => r.id)).toStrictEqual(
          lineage.getFullHistory(byName('compact-002')).map((t) => t.id),
        );
        const compactions = target
          .prepare(
            "SELECT id, summarized_through_turn_id, first_kept_turn_id FROM agent_turns WHERE turn_type = 'compaction' ORDER BY timestamp",
          )
          .all() as { id: string; summarized_through_turn_id: string; first_kept_turn_id: string }[];
        expect(
          compactions.map((c) => [
            name(lineage.turn(c.id)),
            ...[c.summarized_through_turn_id, c.first_kept_turn_id].map((id) => name(lineage.turn(id))),
          ]),
        ).toStrictEqual([
          ['compact-001', 'turn-003', 'turn-004'],
          ['compact-002', 'turn-006', 'turn-007'],
        ]);
      }
      // The seed's partial index serves its own predicate.
      const plan = seed
        .prepare("EXPLAIN QUERY PLAN SELECT id FROM agent_turns WHERE turn_type = 'compaction'")
        .all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join('\n')).toMatch(/idx_turns_compaction/);
    },
  );

  it('reads only the asked session’s entries, through the primary key', () => {
    const { path } = fresh();
    const plan = (
      raw(path).prepare('EXPLAIN QUERY PLAN SELECT * FROM agent_turns WHERE session_id = ?').all('s') as {
        detail: string;
      }[]
    ).map((r) => r.detail);
    expect(plan.join('\n')).toMatch(/SEARCH e USING INDEX sqlite_autoindex_entries_1 \(session_id=\?\)/);
    expect(plan.join('\n')).not.toMatch(/SCAN (e|entries)\b/);
  });

  it('groups every boundary case as the JavaScript turn view does', async () => {
    const { store, path } = fresh();
    const record = { ...sessionRecord('s1'), metadata: { model: 'session-model' } };
    await store.createSession(record);
    const text = (role: 'user' | 'assistant', t: string, metadata?: Message['metadata']): Message =>
      ({ role, parts: [{ type: 'text', text: t }], ...(metadata ? { metadata } : {}) }) as Message;
    const tool = (callId: string) =>
      ({ type: 'tool', callId, name: 'bash', input: {}, state: 'completed', output: 'ok' }) as const;
    const messages: [string, string | null, Message][] = [
      ['e0', null, text('user', 'hello')],
      ['e1', 'e0', { role: 'assistant', parts: [tool('c1'), tool('c2')] }],
      ['e2', 'e1', { role: 'user', parts: [{ type: 'compaction', auto: true }] }],
      ['e3', 'e2', text('user', 'Continue if you have next steps', { synthetic: true })],
      ['e4', 'e3', text('user', 'an old summary', { summary: true })],
      ['e5', 'e4', text('assistant', 'done', { model: 'gpt-x' })],
      ['e6', 'e5', text('user', 'second')],
    ];
    const entries: Entry[] = messages.map(([id, parentId, m], seq) =>
      buildMessageEntry(m, { sessionId: 's1', seq, parentId, id, createdAt: 1_000 + seq }, estimator),
    );
    const pivot = {
      summary: 'hello was answered',
      summarizedThroughId: 'e5',
      firstKeptId: 'e6',
      tokensBefore: 100,
      tokensAfter: 20,
      auto: true,
      summarizer: 'extractive',
      details: { filesRead: [], filesModified: [] },
      previousPivotId: null,
    };
    entries.push(
      buildCompactionEntry(pivot, { sessionId: 's1', seq: 7, parentId: 'e6', id: 'p7' }, estimator),
    );
    const more: [string, string | null, Message][] = [
      ['e8', 'p7', text('assistant', 'continuing after the compaction')],
      ['e9', 'e6', text('assistant', 'a branch that does not continue e8')],
      ['e10', 'e9', { role: 'user', parts: [] }],
    ];
    for (const [i, [id, parentId, m]] of more.entries()) {
      const place = { sessionId: 's1', seq: 8 + i, parentId, id, createdAt: 2_000 + i };
      entries.push(buildMessageEntry(m, place, estimator));
    }
    await store.append(entries, commitAfter(record, entries));

    const rows = viewRows(raw(path), 's1');
    expect(rows).toStrictEqual(expectedRows(entries, 's1', 'session-model'));
    expect(
      rows.map((r) => [
        r.id,
        r.parent_turn_id,
        r.query_message_ids,
        r.response_message_id,
        r.tool_call_count,
        r.model,
        r.has_children,
      ]),
    ).toStrictEqual([
      ['e0', null, '["e0"]', 'e5', 2, 'gpt-x', 1],
      ['e6', 'e0', '["e6"]', null, 0, 'session-model', 1],
      ['p7', 'e6', '[]', 'p7', 0, 'extractive', 1],
      ['e8', 'p7', '[]', 'e8', 0, 'session-model', 0],
      ['e9', 'e6', '[]', 'e9', 0, 'session-model', 1],
      ['e10', 'e9', '["e10"]', null, 0, 'session-model', 0],
    ]);
    expect(rows[2]).toMatchObject({
      turn_type: 'compaction',
      summarized_through_turn_id: 'e0',
      first_kept_turn_id: 'e6',
    });
  });
});
