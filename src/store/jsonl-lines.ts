import { z } from 'zod';
import { type Entry, type Pivot, pivotSchema } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import { jsonObjectSchema } from '../model/json.js';
import { type Message, messageSchema } from '../model/message.js';
import { parseWith } from '../model/validate.js';

/**
 * One JSONL line per entry, in Pegasus's shape first — `{"ts","role","content","metadata"}`, so
 * a reader that knows only the seed's format reads the conversation — then the fields condense
 * needs to give the entry back exactly, under `condense`. A compaction entry is the seed's
 * summary line: role system, the summary as content, `metadata: {type: 'compact',
 * previousSession}`. Nothing is stored twice: a message whose only part is plain text keeps it
 * as the content string, any other message keeps its parts array as the content.
 */

const count = z.number().int().nonnegative();
const payloadSchema = z.object({
  id: z.string().min(1),
  parentId: z.string().min(1).nullable(),
  seq: count,
  createdAt: z.number(),
  tokens: count,
  partTokens: z.array(count),
  pivot: z.record(z.string(), z.unknown()).optional(),
});
const lineSchema = z.object({
  ts: z.number(),
  role: z.enum(['system', 'user', 'assistant']),
  content: z.union([z.string(), z.array(z.unknown())]),
  metadata: jsonObjectSchema.optional(),
  condense: payloadSchema,
});

/** Unix seconds, as the seed's example. */
const seconds = (ms: number) => Math.floor(ms / 1000);

function isPlainText(message: Message): boolean {
  const [only] = message.parts;
  return message.parts.length === 1 && only?.type === 'text' && Object.keys(only).length === 2;
}

/** The line of an entry (no newline). `previousSession` names the archive a pivot's line follows. */
export function encodeLine(entry: Entry, previousSession?: string): string {
  const { id, parentId, seq, createdAt, tokens, partTokens } = entry;
  const head = { id, parentId, seq, createdAt, tokens, partTokens };
  if (entry.kind === 'compaction') {
    const { summary, ...pivot } = entry.pivot;
    return JSON.stringify({
      ts: seconds(createdAt),
      role: 'system',
      content: summary,
      metadata: { type: 'compact', previousSession: previousSession ?? null },
      condense: { ...head, pivot },
    });
  }
  const { message } = entry;
  const [first] = message.parts;
  return JSON.stringify({
    ts: seconds(createdAt),
    role: message.role,
    content: isPlainText(message) && first?.type === 'text' ? first.text : message.parts,
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
    condense: head,
  });
}

/** What a line holds besides the entry: the archive a summary line points back to. */
export interface DecodedLine {
  entry: Entry;
  previousSession?: string;
}

/**
 * The entry of one line, checked field by field; a line that is not one names its file, line
 * and field. The entry is built from the line as read (checked, not re-made by the schema), with
 * keys in the order the entry builders use, so entries serialize exactly as they were stored.
 */
export function decodeLine(text: string, sessionId: string, file: string, line: number): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`not a JSON line (${(error as Error).message})`, { file, line });
  }
  const where = { file, line };
  parseWith(lineSchema, value, where);
  const raw = value as RawLine;
  const { id, parentId, seq, createdAt, tokens, partTokens, pivot } = raw.condense;
  const head = { id, sessionId, parentId, seq, createdAt };
  if (pivot !== undefined) {
    if (typeof raw.content !== 'string')
      throw new InputError('must be the summary text', { ...where, field: 'content' });
    const full = { summary: raw.content, ...pivot };
    parseWith(pivotSchema, full, { ...where, field: 'condense.pivot' });
    const previous = raw.metadata?.previousSession;
    return {
      entry: { kind: 'compaction', ...head, pivot: full as Pivot, partTokens, tokens },
      ...(typeof previous === 'string' ? { previousSession: previous } : {}),
    };
  }
  const parts = typeof raw.content === 'string' ? [{ type: 'text', text: raw.content }] : raw.content;
  const message = {
    role: raw.role,
    parts,
    ...(raw.metadata === undefined ? {} : { metadata: raw.metadata }),
  };
  checkMessage(message, where, typeof raw.content === 'string');
  return { entry: { kind: 'message', ...head, message: message as Message, partTokens, tokens } };
}

type RawLine = z.infer<typeof lineSchema> & { condense: { pivot?: Omit<Pivot, 'summary'> } };

/** The message's parts are the line's `content`: errors name them there (`content[2].output`). */
function checkMessage(message: unknown, where: { file: string; line: number }, isString: boolean): void {
  try {
    parseWith(messageSchema, message);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const inner = error.field ?? '';
    const reason = error.message.slice(inner === '' ? 0 : `field ${inner}: `.length);
    const field = inner.startsWith('parts')
      ? isString
        ? 'content'
        : `content${inner.slice('parts'.length)}`
      : inner || undefined;
    throw new InputError(reason, { ...where, ...(field === undefined ? {} : { field }) });
  }
}

/**
 * The id and seq of a line without parsing all of it (building the duplicate-key index reads every
 * line of every archive once). `condense` is the last key of every line: the object from its last
 * occurrence to the end of the line parses on its own only if that occurrence is the top-level one
 * (one nested deeper leaves closing braces over). Anything unexpected: undefined, decode instead.
 */
export function lineKey(line: string): { id: string; seq: number } | undefined {
  const at = line.lastIndexOf(',"condense":{"id":');
  if (at < 0) return undefined;
  try {
    const { condense } = JSON.parse(`{${line.slice(at + 1)}`) as {
      condense?: { id?: unknown; seq?: unknown };
    };
    const { id, seq } = condense ?? {};
    return typeof id === 'string' && typeof seq === 'number' ? { id, seq } : undefined;
  } catch {
    return undefined;
  }
}
