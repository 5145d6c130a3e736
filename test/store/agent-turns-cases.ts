/**
 * Seed 002's SQL on a store's agent_turns view, for every SQL store: the view has the seed's
 * columns in the seed's order, the seed's own CREATE TABLE / CREATE INDEX take the view's rows, and
 * the seed's traversals written as recursive SQL give the seed's answers. The view and the
 * JavaScript turn view agree on a log with every boundary case.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { buildCompactionEntry, buildMessageEntry } from '../../src/model/build.js';
import type { Entry, Message } from '../../src/model/index.js';
import type { Store } from '../../src/store/index.js';
import { expectedRows, type TurnRow, VIEW_ROWS } from '../lineage/rows.js';
import { nexus, secondCompaction, seedNames } from '../lineage/scenario.js';
import { commitAfter, estimator, sessionRecord } from './fixtures.js';

/** Runs a query on a store's database; `?` stands for each parameter in turn. */
export interface SqlRunner {
  all<R>(sql: string, ...params: unknown[]): Promise<R[]>;
}

/** A database holding the seed's tables; `plan` explains a query. */
export interface SeedDb extends SqlRunner {
  plan(sql: string): Promise<string>;
}

export interface TurnsDb {
  store: Store;
  db: SqlRunner;
  /** The view's column names, in order. */
  columns(): Promise<string[]>;
  /** A database where the seed's DDL (`sql`) ran, filled from the store's sessions and view. */
  seedCopy(sql: string): Promise<SeedDb>;
}

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

const COMPACTIONS = `SELECT id, summarized_through_turn_id, first_kept_turn_id FROM agent_turns
  WHERE turn_type = 'compaction' ORDER BY timestamp`;

type Ids = { id: string }[];

/** The seed's DDL and traversals on the second-compaction scenario (needs /work/shared/seeds). */
export async function seedScenario(fresh: () => Promise<TurnsDb>): Promise<void> {
  const { store, db, columns, seedCopy } = await fresh();
  const session = await nexus(store);
  await secondCompaction(session);
  const lineage = await session.lineage();
  const name = seedNames(lineage.turns());
  const byName = (n: string) => lineage.turns().find((t) => name(t) === n)!.id;
  const names = (rows: Ids) => rows.map((r) => name(lineage.turn(r.id)));

  const sql = seedSql();
  expect(await columns()).toStrictEqual(seedColumns(sql));
  expect(await db.all(VIEW_ROWS, 'nexus')).toStrictEqual(
    expectedRows(await session.history(), 'nexus', 'nexus-model'),
  );

  // The seed's CREATE TABLE and CREATE INDEX, filled from the view. Its foreign keys hold: every
  // parent, summarized and kept turn the view names exists.
  const seed = await seedCopy(sql);
  expect(await seed.all('SELECT COUNT(*) AS n FROM agent_turns')).toStrictEqual([{ n: 10 }]);
  for (const target of [seed, db]) {
    expect(names(await target.all(SUMMARIZED, byName('compact-002')))).toStrictEqual([
      'compact-001',
      'turn-006',
    ]);
    expect(names(await target.all(SUMMARIZED, byName('compact-001')))).toStrictEqual([
      'turn-001',
      'turn-002',
      'turn-003',
    ]);
    const history = await target.all<{ id: string }>(FULL_HISTORY, byName('compact-002'));
    expect(history.map((r) => r.id)).toStrictEqual(
      lineage.getFullHistory(byName('compact-002')).map((t) => t.id),
    );
    const compactions = await target.all<Record<string, string>>(COMPACTIONS);
    expect(
      compactions.map((c) =>
        [c.id, c.summarized_through_turn_id, c.first_kept_turn_id].map((id) => name(lineage.turn(id!))),
      ),
    ).toStrictEqual([
      ['compact-001', 'turn-003', 'turn-004'],
      ['compact-002', 'turn-006', 'turn-007'],
    ]);
  }
  // The seed's partial index serves its own predicate.
  expect(await seed.plan("SELECT id FROM agent_turns WHERE turn_type = 'compaction'")).toMatch(
    /idx_turns_compaction/,
  );
}

const text = (role: 'user' | 'assistant', t: string, metadata?: Message['metadata']): Message =>
  ({ role, parts: [{ type: 'text', text: t }], ...(metadata ? { metadata } : {}) }) as Message;
const tool = (callId: string) =>
  ({ type: 'tool', callId, name: 'bash', input: {}, state: 'completed', output: 'ok' }) as const;

/**
 * A log with every boundary: tool calls, a queued compaction marker, synthetic and summary user
 * messages, a compaction, a branch that does not continue the previous entry, an empty message
 * and a turn asked in two messages.
 */
function boundaryLog(): Entry[] {
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
  entries.push(buildCompactionEntry(pivot, { sessionId: 's1', seq: 7, parentId: 'e6', id: 'p7' }, estimator));
  const more: [string, string | null, Message][] = [
    ['e8', 'p7', text('assistant', 'continuing after the compaction')],
    ['e9', 'e6', text('assistant', 'a branch that does not continue e8')],
    ['e10', 'e9', { role: 'user', parts: [] }],
    ['e11', 'e10', text('user', 'what the harness adds', { synthetic: true })],
  ];
  for (const [i, [id, parentId, m]] of more.entries()) {
    const place = { sessionId: 's1', seq: 8 + i, parentId, id, createdAt: 2_000 + i };
    entries.push(buildMessageEntry(m, place, estimator));
  }
  return entries;
}

export async function boundaryCases(fresh: () => Promise<TurnsDb>): Promise<void> {
  const { store, db } = await fresh();
  const record = { ...sessionRecord('s1'), metadata: { model: 'session-model' } };
  await store.createSession(record);
  const entries = boundaryLog();
  await store.append(entries, commitAfter(record, entries));

  const rows = await db.all<TurnRow>(VIEW_ROWS, 's1');
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
    ['e10', 'e9', '["e10","e11"]', null, 0, 'session-model', 0],
  ]);
  expect(rows[2]).toMatchObject({
    turn_type: 'compaction',
    summarized_through_turn_id: 'e0',
    first_kept_turn_id: 'e6',
  });
}

/** The shared cases, as tests of the calling file's describe block. */
export function agentTurnsCases(fresh: () => Promise<TurnsDb>): void {
  it.skipIf(!existsSync(seedsDir))(
    'runs the seed’s own DDL and traversals on the second-compaction scenario',
    () => seedScenario(fresh),
  );
  it('groups every boundary case as the JavaScript turn view does', () => boundaryCases(fresh));
}
