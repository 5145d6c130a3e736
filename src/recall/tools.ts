import { z } from 'zod';
import type { JsonObject, JsonValue } from '../model/json.js';
import type { SessionHandle } from '../session/handle.js';
import { archivedText, type LatestSpan, latestSpan, type PageLimits, readLatestArchive } from './archive.js';
import { type HistorySearch, searchSession } from './search.js';

/**
 * The agent's way back to what compaction took out of its context (the recall tools), as plain tool
 * specs any framework can register: a name, a description, a JSON schema of the input, and an
 * `execute` that checks its input and never throws for bad input (the model gets `{ error }`).
 */
export interface RecallToolSpec {
  name: 'session_archive_read' | 'history_search';
  description: string;
  /** The zod schema (what the AI SDK takes) and the same as JSON Schema (what others take). */
  schema: z.ZodType;
  inputSchema: JsonValue;
  execute(input: unknown): Promise<JsonValue>;
}

export interface RecallOptions {
  /** Where history_search looks (default: the session's store, `store.search`). */
  search?: HistorySearch;
  /** Page sizes of session_archive_read. */
  page?: PageLimits;
  /** Hits per search at most (default 10; the model may ask for up to 50). */
  hits?: number;
}

const seq = z.number().int().nonnegative();
const archiveInput = z.object({
  file: z
    .string()
    .optional()
    .describe(
      'The archive the summary names (metadata.previousSession). Only the most recent archive is readable.',
    ),
  from: seq.optional().describe('First entry (seq) to read; default the start of the archive.'),
  to: seq.optional().describe('Last entry (seq) to read, inclusive; default the end of the archive.'),
});
const searchInput = z.object({
  query: z
    .string()
    .optional()
    .describe('Words that must all occur; "quoted words" in a row; word* matches a prefix.'),
  entryId: z.string().optional().describe('An entry id from an earlier result: returns that entry whole.'),
  limit: z.number().int().min(1).max(50).optional().describe('Most hits to return (default 10).'),
});

const ARCHIVE_DESCRIPTION =
  'Read the conversation the latest compaction summarized (the most recent archived session), for ' +
  'details the summary left out. Pages by entry seq: give from/to, and follow `next` for more. ' +
  'Older archives are not readable here; search them with history_search.';
const SEARCH_DESCRIPTION =
  'Search everything this conversation ever held, including parts summarized by compaction and old ' +
  'tool outputs cleared from context. Each hit cites an entry id and seq, quotes the matched words ' +
  '(in «») in their sentence, and says how to read the entry: ' +
  'with session_archive_read (the latest archive) or history_search {entryId}.';

export function recallToolSpecs(session: SessionHandle, opts: RecallOptions = {}): RecallToolSpec[] {
  const search = opts.search ?? session.log.store;
  return [
    spec('session_archive_read', ARCHIVE_DESCRIPTION, archiveInput, async (input) => {
      const read = await readLatestArchive(session, input, opts.page);
      if (read.status === 'ok') return read as unknown as JsonValue;
      return read.status === 'none' ? { archive: null, message: read.message } : { error: read.message };
    }),
    spec('history_search', SEARCH_DESCRIPTION, searchInput, async (input) => {
      if ((input.query === undefined) === (input.entryId === undefined))
        return { error: 'give either query (to search) or entryId (to read one entry)' };
      const span = await latestSpan(session);
      if (input.entryId !== undefined) return readEntry(session, input.entryId, span, opts.page?.entryChars);
      const limit = Math.min(input.limit ?? opts.hits ?? 10, 50);
      const hits = await searchSession(search, session.id, input.query!, limit);
      if (!Array.isArray(hits)) return hits;
      return {
        query: input.query!,
        hits: hits.map((hit) => ({
          entryId: hit.entryId,
          seq: hit.seq,
          snippet: hit.snippet,
          ...where(session, hit, span),
        })),
      };
    }),
  ];
}

function spec<S extends z.ZodType>(
  name: RecallToolSpec['name'],
  description: string,
  schema: S,
  run: (input: z.infer<S>) => Promise<JsonValue>,
): RecallToolSpec {
  return {
    name,
    description,
    schema,
    inputSchema: z.toJSONSchema(schema) as JsonValue,
    async execute(input) {
      const parsed = schema.safeParse(input ?? {});
      if (!parsed.success)
        return {
          error: `bad input: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
        };
      return run(parsed.data);
    },
  };
}

/** Where a hit is, and the call that reads it (none while it is still in context). */
interface Place {
  where: 'context' | 'latest-archive' | 'older';
  read: { tool: RecallToolSpec['name']; input: JsonObject } | null;
}

function where(
  session: SessionHandle,
  hit: { entryId: string; seq: number },
  span: LatestSpan | null,
): Place {
  if (hit.seq >= session.record.state.activeFromSeq) return { where: 'context', read: null };
  if (span !== null && hit.seq >= span.fromSeq && hit.seq < span.pivot.seq)
    return {
      where: 'latest-archive',
      read: { tool: 'session_archive_read', input: { from: hit.seq, to: hit.seq } },
    };
  return { where: 'older', read: { tool: 'history_search', input: { entryId: hit.entryId } } };
}

async function readEntry(
  session: SessionHandle,
  entryId: string,
  span: LatestSpan | null,
  chars = 16_000,
): Promise<JsonValue> {
  const entry = await session.log.store.getEntry(session.id, entryId);
  if (entry === undefined) return { error: `no entry ${entryId} in this session` };
  return {
    entryId,
    seq: entry.seq,
    where: where(session, { entryId, seq: entry.seq }, span).where,
    text: archivedText(entry, chars),
  };
}
