/**
 * Nexus's `agent_turns` table as a view over `entries`, with the seed's column names, so the
 * seed's SQL (and its traversals as recursive queries on parent_turn_id) runs unchanged. Nothing is
 * stored twice: the view groups entries into turns by the rule of src/lineage/derive.ts (a user's
 * request, a compaction entry, what follows a compaction, or an entry that does not continue the
 * previous one opens a turn), and tests hold the view and the JavaScript to the same rows.
 *
 * One shape for SQLite (sqlite-turns.ts) and Postgres (postgres-turns.ts): a dialect supplies
 * only the JSON functions, NULL-safe comparisons and casts, so the two views cannot drift apart.
 *
 * Encodings: query_message_ids is a JSON array of entry ids; tool_call_count counts tool
 * parts. A compaction turn's query is derived, so its query_message_ids is `[]` and its response is
 * its own entry. model: the response's `metadata.model`, else the session's stored `metadata.model`
 * (session.turns() falls back to the model the session was opened with); for a compaction, the
 * summarizer's model, else the summarizer's name.
 *
 * Shape: one chain of subqueries, each used once, windows partitioned by session, so that
 * `WHERE session_id = ?` is pushed down to the entries of that session. Turns are mostly linked
 * by window functions; the rare lookups (a turn that does not continue the previous entry, the
 * turns a pivot names, children) are index seeks, never a self-join of the whole view.
 */

/** What differs between the SQL dialects; `e` is a table alias, or '' for an unqualified column. */
export interface TurnsDialect {
  /** Names of the view and of the tables it reads. */
  view: string;
  entries: string;
  sessions: string;
  /** NULL-safe equality and inequality operators. */
  is: string;
  isNot: string;
  /** Columns of entries the view reads besides those both dialects store (', '-prefixed). */
  carry: string;
  /** A message's parts as the argument of json_array_length and of `each`. */
  parts: (e: string) => string;
  /** The table function over a JSON array, its element named `value`. */
  each: string;
  /** The type of the part `value`. */
  partType: string;
  /** True unless the value at `path` (dotted) in entry `e`'s body is JSON true. */
  notTrue: (e: string, path: string) => string;
  /** Whether the value at `path` in a JSON column is a string; its text. */
  isString: (column: string, path: string) => string;
  text: (column: string, path: string) => string;
  /** The ids passing `filter` in window `t`, as a JSON array's text ('[]' when none). */
  idArray: (filter: string) => string;
  /** A sum as an integer column, and a condition as 0 or 1. */
  int: (sum: string) => string;
  flag: (condition: string) => string;
}

/**
 * Nexus's `CREATE INDEX idx_turns_compaction`, as written but for the table (`$T`): its
 * turn_type column lives on the entries table the agent_turns view reads.
 */
export const SEED_002_COMPACTION_INDEX =
  "CREATE INDEX idx_turns_compaction ON $T(turn_type) WHERE turn_type = 'compaction';";

export const col = (e: string, column: string) => (e ? `${e}.${column}` : column);

/** The CREATE VIEW statement for `d`. */
export function agentTurnsView(d: TurnsDialect): string {
  /** A user message made only of compaction markers (a queued request, not conversation). */
  const isMarker = (e: string) => `(${e}.kind = 'message' AND ${e}.role = 'user'
  AND json_array_length(${d.parts(e)}) > 0
  AND NOT EXISTS (SELECT 1 FROM ${d.each}(${d.parts(e)}) WHERE ${d.partType} <> 'compaction'))`;

  /** Opens a turn whatever precedes it: a compaction, or a request the user wrote. */
  const opens = (e: string) => `(${e}.kind = 'compaction' OR (${e}.role = 'user' AND NOT ${isMarker(e)}
  AND ${d.notTrue(e, 'metadata.summary')}
  AND ${d.notTrue(e, 'metadata.synthetic')}))`;

  const starts = (e: string, previousId: string, previousKind: string) =>
    `(${previousId} IS NULL OR ${e}.parent_id ${d.isNot} ${previousId} OR ${previousKind} = 'compaction' OR ${opens(e)})`;

  /** The entry before `e` in its session, by the primary key. */
  const before = (e: string, column: string) =>
    `(SELECT p.${column} FROM ${d.entries} p WHERE p.session_id = ${e}.session_id AND p.seq < ${e}.seq ORDER BY p.seq DESC LIMIT 1)`;

  /** The id of the turn holding entry `id` of session `session`: the nearest turn start at or before it. */
  const turnOf = (session: string, id: string) => `(SELECT s.id FROM ${d.entries} s
  WHERE s.session_id = ${session}
    AND s.seq <= (SELECT x.seq FROM ${d.entries} x WHERE x.session_id = ${session} AND x.id = ${id})
    AND ${starts('s', before('s', 'id'), before('s', 'kind'))}
  ORDER BY s.seq DESC LIMIT 1)`;

  return `
CREATE VIEW ${d.view} AS
WITH flagged AS (
  SELECT e.session_id, e.seq, e.id, e.parent_id, e.kind, e.role, e.tokens, e.created_at, e.body,
    e.turn_type, e.summary, e.summarized_through_id, e.first_kept_id, e.tokens_before, e.tokens_after,
    e.model AS pivot_model, e.summarizer${d.carry},
    ${isMarker('e')} AS marker,
    LAG(e.id) OVER w AS previous_id,
    CASE WHEN ${starts('e', 'LAG(e.id) OVER w', 'LAG(e.kind) OVER w')} THEN 1 ELSE 0 END AS starts
  FROM ${d.entries} e
  WINDOW w AS (PARTITION BY e.session_id ORDER BY e.seq)
),
numbered AS (
  SELECT *, SUM(starts) OVER (PARTITION BY session_id ORDER BY seq ROWS UNBOUNDED PRECEDING) AS turn_no
  FROM flagged
),
placed AS (
  SELECT *,
    MIN(CASE WHEN role = 'assistant' THEN seq END) OVER t AS first_answer,
    MAX(CASE WHEN role = 'assistant' THEN seq END) OVER t AS last_answer
  FROM numbered
  WINDOW t AS (PARTITION BY session_id, turn_no)
),
-- Per-turn figures as window aggregates, not GROUP BY: SQLite pushes a session filter into
-- window subqueries partitioned by session, not into aggregates.
turned AS (
  SELECT *,
    MAX(seq) OVER t AS last_seq,
    ${d.idArray("kind = 'message' AND NOT marker AND (first_answer IS NULL OR seq < first_answer)")} AS query_message_ids,
    MAX(CASE WHEN seq = last_answer THEN id END) OVER t AS response_message_id,
    MAX(CASE WHEN seq = last_answer AND ${d.isString('body', 'metadata.model')}
             THEN ${d.text('body', 'metadata.model')} END) OVER t AS response_model,
    ${d.int('SUM(tokens) OVER t')} AS token_count,
    ${d.int(`SUM(CASE WHEN role = 'assistant' THEN (SELECT COUNT(*) FROM ${d.each}(${d.parts('')})
                                          WHERE ${d.partType} = 'tool') ELSE 0 END) OVER t`)}
      AS tool_call_count
  FROM placed
  WINDOW t AS (PARTITION BY session_id, turn_no ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
-- One row per turn, its first entry's; the previous turn by LAG when the turn continues it.
linked AS (
  SELECT h.*,
    CASE
      WHEN h.parent_id IS NULL THEN NULL
      WHEN h.parent_id ${d.is} h.previous_id THEN LAG(h.id) OVER (PARTITION BY h.session_id ORDER BY h.seq)
      ELSE ${turnOf('h.session_id', 'h.parent_id')}
    END AS parent_turn_id
  FROM turned h
  WHERE h.starts = 1
)
SELECT
  t.id,
  t.session_id,
  t.parent_turn_id,
  CASE WHEN t.kind = 'compaction' THEN '[]' ELSE t.query_message_ids END AS query_message_ids,
  CASE WHEN t.kind = 'compaction' THEN t.id ELSE t.response_message_id END AS response_message_id,
  CASE WHEN t.kind = 'compaction' THEN COALESCE(t.pivot_model, t.summarizer)
       ELSE COALESCE(t.response_model, (SELECT ${d.text('s.metadata', 'model')} FROM ${d.sessions} s WHERE s.id = t.session_id))
  END AS model,
  t.token_count,
  t.created_at AS timestamp,
  -- A child turn starts with an entry whose parent is in this turn (the entries_children index).
  ${d.flag(`EXISTS (SELECT 1 FROM ${d.entries} p JOIN ${d.entries} c ON c.session_id = p.session_id AND c.parent_id = p.id
          WHERE p.session_id = t.session_id AND p.seq BETWEEN t.seq AND t.last_seq
            AND c.seq NOT BETWEEN t.seq AND t.last_seq)`)}
    AS has_children,
  t.tool_call_count,
  t.turn_type,
  t.summary,
  CASE WHEN t.kind = 'compaction' THEN COALESCE(${turnOf('t.session_id', 't.summarized_through_id')}, t.summarized_through_id) END
    AS summarized_through_turn_id,
  CASE WHEN t.kind = 'compaction' THEN COALESCE(${turnOf('t.session_id', 't.first_kept_id')}, t.first_kept_id) END
    AS first_kept_turn_id,
  t.tokens_before,
  t.tokens_after
FROM linked t
ORDER BY t.session_id, t.seq;
`;
}
