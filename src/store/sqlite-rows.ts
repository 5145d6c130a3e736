import type { Entry, Pivot } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { Message } from '../model/message.js';
import type { SessionRecord, SessionState } from '../model/session.js';
import { CorruptRowError } from './errors.js';

/** A `sessions` row as better-sqlite3 returns it. */
export interface SessionRow {
  id: string;
  created_at: number;
  updated_at: number;
  head_id: string | null;
  version: number;
  next_seq: number;
  metadata: string;
  state: string;
}

/** An `entries` row as read (only the columns reads need; the Nexus columns mirror the body). */
export interface EntryRow {
  session_id: string;
  seq: number;
  id: string;
  parent_id: string | null;
  kind: string;
  created_at: number;
  tokens: number;
  part_tokens: string;
  body: string;
}

/** Columns the entry insert writes, in the order `entryValues` gives them. */
export const ENTRY_WRITE_COLUMNS = [
  'session_id',
  'seq',
  'id',
  'parent_id',
  'kind',
  'created_at',
  'tokens',
  'part_tokens',
  'role',
  'body',
  'turn_type',
  'summary',
  'summarized_through_id',
  'first_kept_id',
  'tokens_before',
  'tokens_after',
  'previous_pivot_id',
  'summarizer',
  'model',
  'auto',
] as const;

type SqlValue = string | number | null;
const NO_PIVOT: readonly SqlValue[] = ['normal', null, null, null, null, null, null, null, null, null];

/**
 * Positional values for the insert, aligned with ENTRY_WRITE_COLUMNS. A flat array rather than a
 * spread-built object: on bulk appends building 20-key objects by spreading cost 20x more than
 * the insert itself. SQLite has no booleans or undefined: 0/1 and NULL.
 */
export function entryValues(entry: Entry): SqlValue[] {
  const head: SqlValue[] = [
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
    return head.concat(entry.message.role, JSON.stringify(entry.message), NO_PIVOT);
  }
  const p = entry.pivot;
  return head.concat(null, JSON.stringify(p), [
    'compaction',
    p.summary,
    p.summarizedThroughId,
    p.firstKeptId,
    p.tokensBefore,
    p.tokensAfter,
    p.previousPivotId,
    p.summarizer,
    p.model ?? null,
    p.auto ? 1 : 0,
  ]);
}

/** Parses a JSON column; a row that does not parse is named so that it can be found and fixed. */
export function parseColumn<T>(
  text: string,
  table: string,
  sessionId: string,
  seq: number | undefined,
  column: string,
): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new CorruptRowError(table, sessionId, seq, column, (error as Error).message);
  }
}

/**
 * The columns a load of one session's entries reads, read as arrays (better-sqlite3's raw mode):
 * the session id is the caller's, and making each row an object with named keys first was an
 * eighth of the time of a 100,000-entry read.
 */
export const ENTRY_LOAD_COLUMNS = 'seq, id, parent_id, kind, created_at, tokens, part_tokens, body';

/** A row of ENTRY_LOAD_COLUMNS in raw mode. */
export type EntryCells = [
  seq: number,
  id: string,
  parentId: string | null,
  kind: string,
  createdAt: number,
  tokens: number,
  partTokens: string,
  body: string,
];

/** Key order matches buildMessageEntry/buildCompactionEntry, so entries serialize as they came in. */
export function entryFromCells(sessionId: string, cells: EntryCells): Entry {
  const [seq, id, parentId, kind, createdAt, tokens] = cells;
  const partTokens = parseColumn<number[]>(cells[6], 'entries', sessionId, seq, 'part_tokens');
  // Literals written out rather than spread from a shared head: a spread after a key is copied
  // key by key at run time.
  if (kind === 'compaction') {
    const pivot = parseColumn<Pivot>(cells[7], 'entries', sessionId, seq, 'body');
    return { kind: 'compaction', id, sessionId, parentId, seq, createdAt, pivot, partTokens, tokens };
  }
  const message = parseColumn<Message>(cells[7], 'entries', sessionId, seq, 'body');
  return { kind: 'message', id, sessionId, parentId, seq, createdAt, message, partTokens, tokens };
}

/** An entry from a row read with its column names (searches, which span sessions). */
export function entryFromRow(row: EntryRow): Entry {
  const { seq, id, parent_id, kind, created_at, tokens, part_tokens, body } = row;
  return entryFromCells(row.session_id, [seq, id, parent_id, kind, created_at, tokens, part_tokens, body]);
}

export function sessionFromRow(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    headId: row.head_id,
    version: row.version,
    nextSeq: row.next_seq,
    metadata: parseColumn<JsonObject>(row.metadata, 'sessions', row.id, undefined, 'metadata'),
    state: parseColumn<SessionState>(row.state, 'sessions', row.id, undefined, 'state'),
  };
}
