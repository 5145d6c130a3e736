import { InputError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import type { ImportWhere } from './types.js';

/** Readers for untrusted parsed JSON: each failure names the field it was looking at. */

export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Joins field paths the way errors print them: `a` + `b` → `a.b`, `a` + `[2]` → `a[2]`. */
export function joinField(base: string | undefined, next: string | number | undefined): string {
  const tail = typeof next === 'number' ? `[${next}]` : (next ?? '');
  if (base === undefined || base === '') return tail;
  if (tail === '') return base;
  return tail.startsWith('[') ? base + tail : `${base}.${tail}`;
}

export function fail(reason: string, where: ImportWhere, field?: string): never {
  const full = joinField(where.at, field);
  const line = where.line ?? where.lineOf?.(full);
  throw new InputError(reason, { file: where.file, line, field: full === '' ? undefined : full });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function needRecord(value: unknown, where: ImportWhere, field: string): Rec {
  if (isRecord(value)) return value;
  return fail(`expected an object, got ${describe(value)}`, where, field);
}

export function needArray(value: unknown, where: ImportWhere, field: string): unknown[] {
  if (Array.isArray(value)) return value;
  return fail(`expected an array, got ${describe(value)}`, where, field);
}

export function needString(value: unknown, where: ImportWhere, field: string): string {
  if (typeof value === 'string') return value;
  return fail(`expected a string, got ${describe(value)}`, where, field);
}

/** A non-empty string: ids and names. */
export function needId(value: unknown, where: ImportWhere, field: string): string {
  const s = needString(value, where, field);
  if (s === '') fail('must not be empty', where, field);
  return s;
}

/** Absent or null → undefined; anything but a string is an error. */
export function optString(value: unknown, where: ImportWhere, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return needString(value, where, field);
}

/** ISO timestamp or epoch milliseconds; anything unreadable is treated as absent (timestamps are advisory). */
export function timestamp(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Values that came out of JSON.parse are JSON; `undefined` (a missing field) becomes null. */
export function json(value: unknown): JsonValue {
  return value === undefined ? null : (value as JsonValue);
}

export function jsonObject(value: Rec): JsonObject {
  return value as JsonObject;
}

/** Tool arguments are JSON text by contract, but real logs hold truncated ones: keep those raw. */
export function parseArguments(raw: string): JsonValue {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as JsonValue;
  } catch {
    return raw;
  }
}
