import { ENTRY_READ_COLUMNS, ENTRY_WRITE_COLUMNS } from './postgres-rows.js';
import { quoteSchema } from './postgres-schema.js';
import { MAX_POSITION } from './postgres-text.js';

/** What an event read returns (not its search words). */
const EVENT_COLUMNS = 'seq, id, channel, external_id, author, at, body, metadata, recorded_at';

/** The optional filters of an event listing or search ($1..$4); a NULL parameter filters nothing. */
const EVENT_FILTER = `($1::text IS NULL OR channel = $1) AND ($2::text IS NULL OR author = $2)
  AND ($3::bigint IS NULL OR at >= $3) AND ($4::bigint IS NULL OR at < $4)`;

/**
 * A full-text match: the word query goes through the GIN index; the phrase query then holds
 * exactly where positions are exact (an entry's first 16,383 words), beyond which the words suffice.
 */
const MATCH = (t: string, words: string, phrases: string) =>
  `${t}.search @@ ${words}::tsquery AND (${t}.words > ${MAX_POSITION} OR ${t}.search @@ ${phrases}::tsquery)`;

const ENTRY_COLUMNS = ENTRY_WRITE_COLUMNS.map(([c]) => c).join(', ');

/** The entry columns' parameters from $first on, each cast to its type (`suffix` '[]': arrays). */
const params = (suffix: string, first = 9) =>
  ENTRY_WRITE_COLUMNS.map(([, type], i) => `$${i + first}::${type}${suffix}`).join(', ');

/** The compare-and-swap of the session row ($1-$8), then the entries `rows` select if it matched. */
const appendCommit = (s: string, rows: string) => `WITH s AS (
    UPDATE ${s}.sessions SET updated_at = $3, head_id = $4, version = $2 + 1, next_seq = $5,
      state = $6, metadata = COALESCE($7::jsonb, metadata)
    WHERE id = $1 AND version = $2 AND set_config('synchronous_commit', $8, true) IS NOT NULL
    RETURNING created_at, CASE WHEN $7::jsonb IS NULL THEN metadata END AS metadata
  ), e AS (
    INSERT INTO ${s}.entries (${ENTRY_COLUMNS})
    ${rows} WHERE EXISTS (SELECT FROM s)
  )
  SELECT created_at, metadata FROM s`;

/** Every statement the store runs, with the schema's name in it; exported so tests can EXPLAIN them. */
export function pgSql(schema: string) {
  const s = quoteSchema(schema);
  const readColumns = ENTRY_READ_COLUMNS.split(', ')
    .map((c) => `e.${c}`)
    .join(', ');
  return {
    insertSession: `INSERT INTO ${s}.sessions (id, created_at, updated_at, head_id, version, next_seq, metadata, state)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    getSession: `SELECT * FROM ${s}.sessions WHERE id = $1`,
    listSessions: `SELECT * FROM ${s}.sessions ORDER BY created_at, id`,
    versionOf: `SELECT version FROM ${s}.sessions WHERE id = $1`,
    /** The compare-and-swap: no row back means someone else wrote first (or the session is gone). */
    commit: `UPDATE ${s}.sessions SET updated_at = $3, head_id = $4, version = $2 + 1, next_seq = $5,
        state = $6, metadata = COALESCE($7::jsonb, metadata)
      WHERE id = $1 AND version = $2
      RETURNING *`,
    /**
     * An append in one statement, so one round trip: the compare-and-swap, then the batch (one
     * array parameter per column, from $9) only if it matched. No row back: a conflict, or no
     * such session. What was written is not read back; only what the commit leaves as it was.
     * $8 is the statement's own synchronous_commit (see PostgresStoreOptions).
     */
    appendCommit: appendCommit(s, `SELECT * FROM unnest(${params('[]')})`),
    /**
     * The same for one entry, a turn's usual append: one scalar parameter per column, so neither
     * side builds or takes apart an array for a single row.
     */
    appendOne: appendCommit(s, `SELECT ${params('')}`),
    /** A whole batch in one statement: one array parameter per column. */
    insertEntries: `INSERT INTO ${s}.entries (${ENTRY_COLUMNS}) SELECT * FROM unnest(${params('[]', 1)})`,
    /** Which of a failed batch's seqs and ids were already stored, to name the clash. */
    clashes: `SELECT seq, id FROM ${s}.entries WHERE session_id = $1 AND (seq = ANY($2::bigint[]) OR id = ANY($3::text[]))`,
    /** A range scan of the (session_id, seq) primary key: cost follows the rows returned, not history. */
    loadFrom: `SELECT ${readColumns} FROM ${s}.entries e WHERE session_id = $1 AND seq >= $2 ORDER BY seq`,
    loadRange: `SELECT ${readColumns} FROM ${s}.entries e WHERE session_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
    getEntry: `SELECT ${readColumns} FROM ${s}.entries e WHERE session_id = $1 AND id = $2`,
    /**
     * Pruning: new parts, figures and search words for a batch of message entries, each found
     * through its (session_id, id) key. The rest of the message is not touched, nor read.
     */
    updateParts: `UPDATE ${s}.entries e SET parts = u.parts, part_tokens = u.part_tokens, tokens = u.tokens,
        search = u.search, words = u.words
      FROM unnest($2::text[], $3::json[], $4::jsonb[], $5::bigint[], $6::tsvector[], $7::int[])
        AS u(id, parts, part_tokens, tokens, search, words)
      WHERE e.session_id = $1 AND e.id = u.id AND e.kind = 'message'
      RETURNING e.id`,
    /** A write's parts as stored, to tell whether a write whose COMMIT was lost landed. */
    partsOf: `SELECT id, parts FROM ${s}.entries WHERE session_id = $1 AND id = ANY($2::text[])`,
    kindOf: `SELECT kind FROM ${s}.entries WHERE session_id = $1 AND id = $2`,
    /**
     * Entries whose words are not indexed yet (the entries_unindexed index), locked in key order
     * so that processes indexing at once wait for each other instead of deadlocking; a row
     * another indexed meanwhile drops out when the lock is granted.
     */
    unindexed: `SELECT ${readColumns} FROM ${s}.entries e WHERE search IS NULL
      ORDER BY session_id, seq LIMIT $1 FOR UPDATE`,
    /** Whether any entry awaits indexing: the check every search makes, outside a transaction. */
    anyUnindexed: `SELECT 1 FROM ${s}.entries WHERE search IS NULL LIMIT 1`,
    /** Search words for a batch of entries, by key ($1 one session id per entry). */
    indexEntries: `UPDATE ${s}.entries e SET search = u.search, words = u.words
      FROM unnest($1::text[], $2::bigint[], $3::tsvector[], $4::int[]) AS u(session_id, seq, search, words)
      WHERE e.session_id = u.session_id AND e.seq = u.seq AND e.search IS NULL`,
    /** Ties (equal rank) newest first, as compareHits orders the memory store's hits. */
    search: `SELECT ${readColumns}, e.role, ts_rank(e.search, $1::tsquery, 1) AS rank
      FROM ${s}.entries e
      WHERE ${MATCH('e', '$1', '$2')} AND ($3::text IS NULL OR e.session_id = $3)
      ORDER BY rank DESC, e.created_at DESC, e.session_id, e.seq DESC
      LIMIT $4`,
    deleteSession: `DELETE FROM ${s}.sessions WHERE id = $1`,
    deleteEntries: `DELETE FROM ${s}.entries WHERE session_id = $1`,
    insertEvent: `INSERT INTO ${s}.events (id, channel, external_id, author, at, body, metadata, recorded_at, search, words)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
      ON CONFLICT (channel, external_id) DO NOTHING
      RETURNING seq`,
    eventByKey: `SELECT ${EVENT_COLUMNS} FROM ${s}.events WHERE channel = $1 AND external_id = $2`,
    eventById: `SELECT ${EVENT_COLUMNS} FROM ${s}.events WHERE id = $1`,
    listEvents: `SELECT ${EVENT_COLUMNS} FROM ${s}.events WHERE ${EVENT_FILTER} ORDER BY at, seq LIMIT $5`,
    /** Ties (equal rank) newest first, as the memory ledger orders them. */
    searchEvents: `SELECT ${EVENT_COLUMNS.split(', ')
      .map((c) => `ev.${c}`)
      .join(', ')}, ts_rank(ev.search, $6::tsquery, 1) AS rank
      FROM ${s}.events ev
      WHERE ${MATCH('ev', '$6', '$7')} AND ${EVENT_FILTER}
      ORDER BY rank DESC, ev.at DESC, ev.seq DESC
      LIMIT $5`,
  };
}

export type PgSql = ReturnType<typeof pgSql>;
