import type { z } from 'zod';
import { canonicalMessage } from './aliases.js';
import { type Entry, entrySchema } from './entry.js';
import { InputError, type InputLocation } from './errors.js';
import { MAX_JSON_DEPTH, pathTooDeep } from './json.js';
import { type Message, messageSchema } from './message.js';
import { wellFormed } from './text.js';

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    return acc === '' ? String(key) : `${acc}.${String(key)}`;
  }, '');
}

/** `base` then `tail` as one field (`messages[2]` + `parts[0]` → `messages[2].parts[0]`). */
function joinFields(base: string | undefined, tail: string): string | undefined {
  if (base === undefined || base === '') return tail === '' ? undefined : tail;
  if (tail === '') return base;
  return tail.startsWith('[') ? base + tail : `${base}.${tail}`;
}

/** Levels of a too-deep path shown in the error: enough to find the value, not 500 of them. */
const SHOWN_LEVELS = 8;

/** Bad input for JSON nested past MAX_JSON_DEPTH; the field is where the deep nesting starts. */
export function tooDeepError(path: readonly (string | number)[], where: InputLocation = {}): InputError {
  const shown = fieldPath(path.slice(0, SHOWN_LEVELS)) + (path.length > SHOWN_LEVELS ? '…' : '');
  return new InputError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels, the most condense accepts`, {
    ...where,
    field: joinFields(where.field, shown),
  });
}

/** Parses with a zod schema; the first issue becomes an InputError naming its field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: InputLocation = {}): T {
  // zod recurses: measured first, so a too-deep value is bad input instead of a stack overflow.
  const deep = pathTooDeep(value);
  if (deep !== undefined) throw tooDeepError(deep, where);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new InputError(issue.message, { ...where, field: joinFields(where.field, fieldPath(issue.path)) });
}

/**
 * A message, its tool parts first mapped from the AI SDK / opencode vocabularies (aliases.ts),
 * lone surrogates replaced by U+FFFD (text.ts: the caller reports them, counted with loneSurrogates).
 */
export function parseMessage(value: unknown, where: InputLocation = {}): Message {
  return wellFormed(parseWith(messageSchema, canonicalMessage(value), where) as Message);
}

export function parseEntry(value: unknown, where: InputLocation = {}): Entry {
  return wellFormed(parseWith(entrySchema, value, where) as Entry);
}
