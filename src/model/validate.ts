import type { z } from 'zod';
import { type Entry, entrySchema } from './entry.js';
import { InputError, type InputLocation } from './errors.js';
import { type Message, messageSchema } from './message.js';

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    return acc === '' ? String(key) : `${acc}.${String(key)}`;
  }, '');
}

/** Parses with a zod schema; the first issue becomes an InputError naming its field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: InputLocation = {}): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = [where.field, fieldPath(issue.path)].filter((s) => s !== undefined && s !== '').join('.');
  throw new InputError(issue.message, { ...where, field: field === '' ? undefined : field });
}

export function parseMessage(value: unknown, where: InputLocation = {}): Message {
  return parseWith(messageSchema, value, where) as Message;
}

export function parseEntry(value: unknown, where: InputLocation = {}): Entry {
  return parseWith(entrySchema, value, where) as Entry;
}
