import { z } from 'zod';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * JSON values are checked by a walk and passed through as they are, not rebuilt: zod's records
 * rebuild an object key by key, and assigning `__proto__` sets the prototype instead of keeping
 * the key, so tool arguments holding a `__proto__` key (data, as JSON.parse reads it) lost it.
 */
export const jsonValueSchema = z.unknown().superRefine((value, ctx) => {
  const bad = notJson(value);
  if (bad) ctx.addIssue({ code: 'custom', ...bad });
}) as unknown as z.ZodType<JsonValue>;

export const jsonObjectSchema = z.unknown().superRefine((value, ctx) => {
  const bad = isPlainObject(value)
    ? notJson(value)
    : { message: `expected an object, got ${kindOf(value)}`, path: [] };
  if (bad) ctx.addIssue({ code: 'custom', ...bad });
}) as unknown as z.ZodType<JsonObject>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return typeof value === 'object'
    ? `a ${value.constructor?.name ?? 'non-plain'} object`
    : `a ${typeof value}`;
}

interface NotJson {
  message: string;
  path: (string | number)[];
}

/**
 * The first place `value` holds something JSON cannot (undefined, NaN, a function, a Date...).
 * The path is built only on the way back from a failure: valid values allocate nothing.
 */
function notJson(value: unknown): NotJson | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : { message: `expected a JSON value, got ${value}`, path: [] };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = notJson(value[i]);
      if (bad) return within(i, bad);
    }
    return undefined;
  }
  if (!isPlainObject(value)) return { message: `expected a JSON value, got ${kindOf(value)}`, path: [] };
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const bad = notJson(value[key]);
    if (bad) return within(key, bad);
  }
  return undefined;
}

function within(key: string | number, bad: NotJson): NotJson {
  bad.path.unshift(key);
  return bad;
}

/**
 * How deep JSON may nest, in arrays and objects. Validation, storage (JSON.stringify) and the
 * serializers recurse, and past a couple of thousand levels the call stack runs out with an error
 * naming nothing; real transcripts nest a few dozen levels at most.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The path to the first array or object nested deeper than `max`, or undefined when none is.
 * Walks with an explicit stack, so any depth can be measured; the path is only built on failure.
 */
export function pathTooDeep(value: unknown, max = MAX_JSON_DEPTH): (string | number)[] | undefined {
  return nestsDeeper(value, max) ? firstPathDeeper(value, max) : undefined;
}

/** The fast check run on every value: no paths, no per-container allocations. */
function nestsDeeper(value: unknown, max: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop()! + 1;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    const children: unknown[] = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (child === null || typeof child !== 'object') continue;
      values.push(child);
      depths.push(depth);
    }
  }
  return false;
}

function firstPathDeeper(value: unknown, max: number): (string | number)[] | undefined {
  const stack: Array<{ value: unknown; path: (string | number)[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.path.length + 1 > max) return item.path;
    const children: Array<[string | number, unknown]> = Array.isArray(item.value)
      ? item.value.map((v, i) => [i, v])
      : Object.entries(item.value);
    // Pushed in reverse so the first child is examined first: the path found is the earliest one.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i]!;
      stack.push({ value: child, path: [...item.path, key] });
    }
  }
  return undefined;
}
