/**
 * The agent_turns rows the SQLite and Postgres views must give for a session, computed from the JavaScript turn
 * view (src/lineage): the two derive turns independently and must agree row for row.
 */
import type Database from 'better-sqlite3';
import { Lineage } from '../../src/lineage/index.js';
import type { Entry, Message } from '../../src/model/index.js';

export interface TurnRow {
  id: string;
  session_id: string;
  parent_turn_id: string | null;
  query_message_ids: string;
  response_message_id: string | null;
  model: string | null;
  token_count: number;
  timestamp: number;
  has_children: number;
  tool_call_count: number;
  turn_type: string;
  summary: string | null;
  summarized_through_turn_id: string | null;
  first_kept_turn_id: string | null;
  tokens_before: number | null;
  tokens_after: number | null;
}

const NO_MODEL = '\u0000none';

/** `model`: the session's stored metadata.model (what the view falls back to), if any. */
export function expectedRows(log: Entry[], sessionId: string, model: string | undefined): TurnRow[] {
  const idOf = new Map<Message, string>();
  for (const e of log) if (e.kind === 'message') idOf.set(e.message, e.id);
  return Lineage.of(log, { sessionId, model: model ?? NO_MODEL })
    .turns()
    .map((t) => {
      const compaction = t.turnType === 'compaction' ? t : undefined;
      return {
        id: t.id,
        session_id: sessionId,
        parent_turn_id: t.parentTurnId ?? null,
        query_message_ids: JSON.stringify(compaction ? [] : t.queryMessages.map((m) => idOf.get(m)!)),
        response_message_id: compaction ? t.id : t.responseMessage ? idOf.get(t.responseMessage)! : null,
        model: t.model === NO_MODEL ? null : t.model,
        token_count: t.tokenCount,
        timestamp: t.timestamp,
        has_children: t.hasChildren ? 1 : 0,
        tool_call_count: t.toolCalls.length,
        turn_type: t.turnType,
        summary: compaction?.summary ?? null,
        summarized_through_turn_id: compaction?.summarizedThroughTurnId ?? null,
        first_kept_turn_id: compaction?.firstKeptTurnId ?? null,
        tokens_before: compaction?.tokensBefore ?? null,
        tokens_after: compaction?.tokensAfter ?? null,
      };
    });
}

/** A session's rows of the view, in order (the view's own). */
export const VIEW_ROWS = 'SELECT * FROM agent_turns WHERE session_id = ?';

export function viewRows(db: Database.Database, sessionId: string): TurnRow[] {
  return db.prepare(VIEW_ROWS).all(sessionId) as TurnRow[];
}
