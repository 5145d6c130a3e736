import { lineAt } from './json-text.js';

/**
 * Finds the line of a field inside a JSON document without a second full parse into a position
 * tree: it walks the text along the path, skipping the values it does not need. When the path does
 * not resolve fully (the field is missing), the line of the deepest part that exists is returned,
 * which is where the user has to look.
 */
export function lineOfField(text: string, field: string): number | undefined {
  const path = splitField(field);
  const offset = locate(text, path);
  return offset === undefined ? undefined : lineAt(text, offset);
}

/** `a.b[3].c` → ['a', 'b', 3, 'c']. */
export function splitField(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function skipSpace(t: string, i: number): number {
  while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  return i;
}

/** `i` at an opening quote; returns the index after the closing one. */
function skipString(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
  }
  return t.length;
}

/** `i` at a value's first character; returns the index after it. */
function skipValue(t: string, i: number): number {
  const first = t[i];
  if (first === '"') return skipString(t, i);
  if (first !== '{' && first !== '[') {
    while (i < t.length && !',}]'.includes(t[i]!) && !isSpace(t.charCodeAt(i))) i++;
    return i;
  }
  let depth = 0;
  while (i < t.length) {
    const c = t[i];
    if (c === '"') {
      i = skipString(t, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

/** Offset of the value at `path`, or of its deepest existing ancestor. */
function locate(t: string, path: (string | number)[]): number | undefined {
  let i = skipSpace(t, 0);
  if (i >= t.length) return undefined;
  for (const seg of path) {
    const child = typeof seg === 'number' ? arrayItem(t, i, seg) : objectMember(t, i, seg);
    if (child === undefined) return i;
    i = child;
  }
  return i;
}

function arrayItem(t: string, i: number, index: number): number | undefined {
  if (t[i] !== '[') return undefined;
  i++;
  for (let k = 0; ; k++) {
    i = skipSpace(t, i);
    if (i >= t.length || t[i] === ']') return undefined;
    if (k === index) return i;
    i = skipSpace(t, skipValue(t, i));
    if (t[i] !== ',') return undefined;
    i++;
  }
}

function objectMember(t: string, i: number, key: string): number | undefined {
  if (t[i] !== '{') return undefined;
  i++;
  for (;;) {
    i = skipSpace(t, i);
    if (t[i] !== '"') return undefined;
    const end = skipString(t, i);
    const name = JSON.parse(t.slice(i, end)) as string;
    i = skipSpace(t, end);
    if (t[i] !== ':') return undefined;
    i = skipSpace(t, i + 1);
    if (name === key) return i;
    i = skipSpace(t, skipValue(t, i));
    if (t[i] !== ',') return undefined;
    i++;
  }
}
