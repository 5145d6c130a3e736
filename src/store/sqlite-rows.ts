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

/** An `entries` row as read (only the columns reads need; the seed 002 columns mirror the body). */
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

/** Named parameters of the entry insert. SQLite has no booleans and no undefined: 0/1 and NULL. */
export interface EntryParams {
  session_id: string;
  seq: number;
  id: string;
  parent_id: string | null;
  kind: string;
  created_at: number;
  tokens: number;
  part_tokens: string;
  role: string | null;
  body: string;
  turn_type: 'normal' | 'compaction';
  summary: string | null;
  summarized_through_id: string | null;
  first_kept_id: string | null;
  tokens_before: number | null;
  tokens_after: number | null;
  previous_pivot_id: string | null;
  summarizer: string | null;
  model: string | null;
  auto: number | null;
}

const NO_PIVOT_COLUMNS = {
  summary: null,
  summarized_through_id: null,
  first_kept_id: null,
  tokens_before: null,
  tokens_after: null,
  previous_pivot_id: null,
  summarizer: null,
  model: null,
  auto: null,
} as const;

export function entryParams(entry: Entry): EntryParams {
  const common = {
    session_id: entry.sessionId,
    seq: entry.seq,
    id: entry.id,
    parent_id: entry.parentId,
    kind: entry.kind,
    created_at: entry.createdAt,
    tokens: entry.tokens,
    part_tokens: JSON.stringify(entry.partTokens),
  };
  if (entry.kind === 'message') {
    const body = JSON.stringify(entry.message);
    return { ...common, role: entry.message.role, body, turn_type: 'normal', ...NO_PIVOT_COLUMNS };
  }
  const p = entry.pivot;
  return {
    ...common,
    role: null,
    body: JSON.stringify(p),
    turn_type: 'compaction',
    summary: p.summary,
    summarized_through_id: p.summarizedThroughId,
    first_kept_id: p.firstKeptId,
    tokens_before: p.tokensBefore,
    tokens_after: p.tokensAfter,
    previous_pivot_id: p.previousPivotId,
    summarizer: p.summarizer,
    model: p.model ?? null,
    auto: p.auto ? 1 : 0,
  };
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

/** Key order matches buildMessageEntry/buildCompactionEntry, so entries serialize as they came in. */
export function entryFromRow(row: EntryRow): Entry {
  const col = <T>(text: string, column: string) =>
    parseColumn<T>(text, 'entries', row.session_id, row.seq, column);
  const head = {
    id: row.id,
    sessionId: row.session_id,
    parentId: row.parent_id,
    seq: row.seq,
    createdAt: row.created_at,
  };
  const partTokens = col<number[]>(row.part_tokens, 'part_tokens');
  if (row.kind === 'compaction') {
    const pivot = col<Pivot>(row.body, 'body');
    return { kind: 'compaction', ...head, pivot, partTokens, tokens: row.tokens };
  }
  const message = col<Message>(row.body, 'body');
  return { kind: 'message', ...head, message, partTokens, tokens: row.tokens };
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
