import type { Entry } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { Part } from '../model/parts.js';
import type { SessionRecord, SessionState } from '../model/session.js';
import {
  type EntryRow,
  parseColumn,
  type SessionRow,
  entryFromRow as sqliteEntryFromRow,
} from './sqlite-rows.js';
import type { Commit } from './store.js';

export { sessionFromRow } from './sqlite-rows.js';

/**
 * The session row as a commit left it, from the commit itself: only what the commit keeps as it
 * was (creation time, metadata when not replaced) comes back from the server. The state goes
 * through JSON as the stored one does (an undefined field is no field).
 */
export function committedRecord(
  commit: Commit,
  updatedAt: number,
  row: { created_at: number; metadata: string | null },
): SessionRecord {
  const metadata =
    commit.metadata ??
    parseColumn<JsonObject>(row.metadata ?? '{}', 'sessions', commit.sessionId, undefined, 'metadata');
  return {
    id: commit.sessionId,
    createdAt: row.created_at,
    updatedAt,
    headId: commit.headId,
    version: commit.expectedVersion + 1,
    nextSeq: commit.nextSeq,
    metadata: JSON.parse(JSON.stringify(metadata)) as JsonObject,
    state: JSON.parse(JSON.stringify(commit.state)) as SessionState,
  };
}

/** A `sessions` row as the store's queries return it (JSONB as text). */
/** A `sessions` row: the same columns, read the same way, on both SQL stores. */
export type PgSessionRow = SessionRow;

/** An `entries` row as read (JSON as text). */
export interface PgEntryRow extends EntryRow {
  /** A message's parts, kept apart from its body so a prune rewrites only them. */
  parts: string | null;
}

export const ENTRY_READ_COLUMNS =
  'session_id, seq, id, parent_id, kind, created_at, tokens, part_tokens, body, parts';

/**
 * Columns an entry insert writes, with the Postgres type each is sent as. Not its search words:
 * the next search indexes them (postgres-search.ts), so an append does not pay for them.
 */
export const ENTRY_WRITE_COLUMNS = [
  ['session_id', 'text'],
  ['seq', 'bigint'],
  ['id', 'text'],
  ['parent_id', 'text'],
  ['kind', 'text'],
  ['created_at', 'bigint'],
  ['tokens', 'bigint'],
  ['part_tokens', 'jsonb'],
  ['role', 'text'],
  ['body', 'json'],
  ['parts', 'json'],
  ['turn_type', 'text'],
  ['summary', 'text'],
  ['summarized_through_id', 'text'],
  ['first_kept_id', 'text'],
  ['tokens_before', 'bigint'],
  ['tokens_after', 'bigint'],
  ['previous_pivot_id', 'text'],
  ['summarizer', 'text'],
  ['model', 'text'],
  ['auto', 'boolean'],
] as const;

type Value = string | number | boolean | null;
const NO_PIVOT: readonly Value[] = ['normal', null, null, null, null, null, null, null, null, null];

/** Postgres text cannot hold NUL; the columns copied from a pivot drop it (the body keeps it, escaped). */
const textCopy = (s: string) => s.replaceAll('\u0000', '');

/**
 * One entry's values in ENTRY_WRITE_COLUMNS order. A message is stored as its body with
 * `parts: null` (the key keeps its place, so the message reads back with its keys in order) and
 * its parts in their own column.
 */
export function entryValues(entry: Entry): Value[] {
  const head: Value[] = [
    entry.sessionId,
    entry.seq,
    entry.id,
    entry.parentId,
    entry.kind,
    entry.createdAt,
    entry.tokens,
    JSON.stringify(entry.partTokens),
  ];
  if (entry.kind === 'message') {
    const body = JSON.stringify({ ...entry.message, parts: null });
    return [...head, entry.message.role, body, JSON.stringify(entry.message.parts), ...NO_PIVOT];
  }
  const p = entry.pivot;
  return [
    ...head,
    null,
    JSON.stringify(p),
    null,
    'compaction',
    textCopy(p.summary),
    p.summarizedThroughId,
    p.firstKeptId,
    p.tokensBefore,
    p.tokensAfter,
    p.previousPivotId,
    p.summarizer,
    p.model ?? null,
    p.auto,
  ];
}

/** Rows as one array per column, for an INSERT … SELECT FROM unnest(…): one statement per batch. */
export function columnArrays(rows: readonly Value[][]): Value[][] {
  return ENTRY_WRITE_COLUMNS.map((_, i) => rows.map((row) => row[i]!));
}

export function entryFromRow(row: PgEntryRow): Entry {
  const entry = sqliteEntryFromRow(row);
  if (entry.kind === 'message')
    (entry.message as { parts: Part[] }).parts = parseColumn<Part[]>(
      row.parts ?? 'null',
      'entries',
      row.session_id,
      row.seq,
      'parts',
    );
  return entry;
}

/** A session's insert values, in the order of SQL.insertSession. */
export function sessionValues(r: SessionRecord): Value[] {
  return [
    r.id,
    r.createdAt,
    r.updatedAt,
    r.headId,
    r.version,
    r.nextSeq,
    JSON.stringify(r.metadata),
    JSON.stringify(r.state),
  ];
}
