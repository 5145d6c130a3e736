import { z } from 'zod';

/** One problem in a configuration file: where (a key path) and what, in words a user can act on. */
export interface ConfigIssue {
  path: (string | number)[];
  reason: string;
}

type Issue = z.core.$ZodIssue;

/** zod's default wording, for checks whose schema gives no message of its own. */
export function defaultMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message ?? 'invalid value';
  }
}

function article(type: string): string {
  if (type === 'object') return 'a mapping of keys';
  if (type === 'array') return 'a list';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** `got 80`, `got "0.8"` (a string where a number belongs says so by its quotes). */
function got(input: unknown): string {
  if (input === undefined) return '';
  const shown = JSON.stringify(input);
  return `, got ${shown === undefined ? String(input) : shown.length > 60 ? `${shown.slice(0, 57)}…` : shown}`;
}

/**
 * Flattens zod's issues into one located problem each. An unknown key names itself, the keys that
 * are known there and the nearest one; a union (e.g. `prune: false | {…}`) given an object reports
 * the object's own problems rather than "matches no alternative".
 */
export function configIssues(issues: readonly Issue[], schema: z.ZodType): ConfigIssue[] {
  return issues.flatMap((issue) => flatten(issue, [], schema));
}

function flatten(issue: Issue, prefix: (string | number)[], schema: z.ZodType): ConfigIssue[] {
  const path = [...prefix, ...(issue.path as (string | number)[])];
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, path);
    return issue.keys.map((key) => ({ path: [...path, key], reason: unknownKey(key, known) }));
  }
  if (issue.code === 'invalid_union') {
    // An alternative whose type matched (its problems lie inside the value) is the one meant.
    const meant = issue.errors.find((branch) =>
      branch.some((i) => i.path.length > 0 || i.code === 'unrecognized_keys'),
    );
    if (meant) return meant.flatMap((i) => flatten(i, path, schema));
  }
  return [{ path, reason: issue.message + got(issue.input) }];
}

function unknownKey(key: string, known: string[]): string {
  const near = known.find((k) => distance(k.toLowerCase(), key.toLowerCase()) <= 2);
  const hint = near ? ` (did you mean '${near}'?)` : '';
  const list = known.length > 0 ? `; the keys known here are ${known.join(', ')}` : '';
  return `unknown key${hint}${list}`;
}

/** The keys an object schema accepts at `path` (through optional wrappers and unions). */
export function keysAt(schema: z.ZodType, path: (string | number)[]): string[] {
  let node: z.ZodType | undefined = schema;
  for (const seg of path) node = node && objectOf(node)?.shape[seg];
  const obj = node && objectOf(node);
  return obj ? Object.keys(obj.shape) : [];
}

function objectOf(node: z.ZodType): z.ZodObject | undefined {
  if (node instanceof z.ZodOptional) return objectOf(node.unwrap() as z.ZodType);
  if (node instanceof z.ZodUnion)
    return (node.options as z.ZodType[]).map(objectOf).find((o) => o !== undefined);
  return node instanceof z.ZodObject ? node : undefined;
}

/** Edit distance, for "did you mean": keys are short, so the quadratic table is nothing. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
