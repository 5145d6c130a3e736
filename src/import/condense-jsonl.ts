import { z } from 'zod';
import { canonicalMessage } from '../model/aliases.js';
import type { Entry } from '../model/entry.js';
import { jsonObjectSchema } from '../model/json.js';
import { PART_TYPES } from '../model/parts.js';
import { parseEntry, parseWith } from '../model/validate.js';
import { fail, isRecord, joinField, needRecord } from './fields.js';
import { parseJsonLines } from './json-text.js';
import { fromSeedShape, type SeedShape, seedShapedEntry } from './seed-shapes.js';
import type { CondenseSessionHeader, ImportWhere } from './types.js';

/**
 * condense's own export: a `{"type":"session", id, createdAt, metadata}` line, then one
 * `{"type":"entry", ...Entry}` line per entry in log order.
 */

export interface CondenseExport {
  session: CondenseSessionHeader;
  entries: Entry[];
}

const count = z.number().int().nonnegative();
const usageSchema = z.object({
  inputTotal: count,
  cacheRead: count,
  cacheWrite: count,
  output: count,
  reasoning: count,
});
const calibrationSchema = z.object({
  ratio: z.number().positive(),
  overheadRaw: z.number(),
  residual: z.number(),
  samples: count,
  anchorRaw: z.number().optional(),
  anchorTokens: z.number().optional(),
  residualLow: z.number().optional(),
});
const stateSchema = z.object({
  lastUsage: z.object({ usage: usageSchema, model: z.string().optional(), afterSeq: count }).nullable(),
  addedSinceUsage: z.number().int(),
  calibration: z.record(z.string(), calibrationSchema),
});

const headerSchema = z.object({
  id: z.string().min(1),
  createdAt: z.number(),
  metadata: jsonObjectSchema,
  state: stateSchema.optional(),
});

/** `shape`: entries in a seed system's record shapes (seed-shapes.ts); import reads both. */
export function exportJsonl(
  session: CondenseSessionHeader,
  entries: readonly Entry[],
  shape?: SeedShape,
): string {
  const { state } = session;
  const header = {
    type: 'session',
    id: session.id,
    createdAt: session.createdAt,
    metadata: session.metadata,
    ...(state
      ? {
          state: {
            lastUsage: state.lastUsage,
            addedSinceUsage: state.addedSinceUsage,
            calibration: state.calibration,
          },
        }
      : {}),
  };
  const lines = [
    JSON.stringify(header),
    ...entries.map((entry) =>
      JSON.stringify({ type: 'entry', ...(shape ? seedShapedEntry(entry, shape) : entry) }),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Parses and checks an export: every entry against the schema (unknown part types named as such),
 * ids unique, seq strictly increasing, each parentId naming an earlier entry (or null), every entry
 * belonging to the header's session. Errors name the file, the line and the field.
 */
export function parseCondenseJsonl(text: string, where: Pick<ImportWhere, 'file'> = {}): CondenseExport {
  const lines = parseJsonLines(text, where.file);
  const first = lines[0];
  if (!first) return fail('empty file: expected a session line', { file: where.file, line: 1 });
  const headWhere = { file: where.file, line: first.line };
  const head = needRecord(first.value, headWhere, '');
  if (head.type !== 'session')
    fail(`expected "session" on the first line, got ${JSON.stringify(head.type)}`, headWhere, 'type');
  const { type: _headType, ...headFields } = head;
  const session = parseWith(headerSchema, headFields, headWhere);

  const lineOfId = new Map<string, number>();
  let previousSeq = -1;
  const entries = lines.slice(1).map(({ line, value }) => {
    const w = { file: where.file, line };
    const rec = needRecord(value, w, '');
    if (rec.type !== 'entry') fail(`expected "entry", got ${JSON.stringify(rec.type)}`, w, 'type');
    const { type: _type, ...raw } = rec;
    const fields = fromSeedShape(raw);
    if (isRecord(fields.message)) fields.message = canonicalMessage(fields.message);
    checkPartTypes(fields, w);
    const entry = parseEntry(fields, w);
    if (entry.sessionId !== session.id)
      fail(`belongs to session "${entry.sessionId}", not "${session.id}"`, w, 'sessionId');
    const seen = lineOfId.get(entry.id);
    if (seen !== undefined) fail(`duplicate id "${entry.id}" (first on line ${seen})`, w, 'id');
    if (entry.seq <= previousSeq)
      fail(`seq ${entry.seq} is not greater than the previous ${previousSeq}`, w, 'seq');
    if (entry.parentId !== null && !lineOfId.has(entry.parentId)) {
      fail(`parentId "${entry.parentId}" does not name an earlier entry`, w, 'parentId');
    }
    lineOfId.set(entry.id, line);
    previousSeq = entry.seq;
    return entry;
  });
  const afterSeq = session.state?.lastUsage?.afterSeq;
  if (afterSeq !== undefined && afterSeq > previousSeq + 1)
    fail(
      `afterSeq ${afterSeq} is past the last entry (seq ${previousSeq})`,
      headWhere,
      'state.lastUsage.afterSeq',
    );
  return { session, entries };
}

/** The schema's union would only say "invalid input" for a part of an unknown type; say what is wrong. */
function checkPartTypes(fields: Record<string, unknown>, where: ImportWhere): void {
  const message = fields.message;
  if (fields.kind !== 'message' || !isRecord(message) || !Array.isArray(message.parts)) return;
  message.parts.forEach((part, i) => {
    if (!isRecord(part)) return;
    const type = part.type;
    if (typeof type === 'string' && (PART_TYPES as readonly string[]).includes(type)) return;
    fail(
      `unknown part type ${JSON.stringify(type)} (expected one of ${PART_TYPES.join(', ')})`,
      where,
      joinField(joinField('message.parts', i), 'type'),
    );
  });
}
