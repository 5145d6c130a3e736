/**
 * A deep copy of stored values for a store held in process memory. Entries are JSON-like trees
 * whose weight is in their strings (tool outputs, file contents), and strings cannot be changed in
 * place: sharing them isolates a caller from the stored state as well as copying them would.
 * structuredClone copies every string twice (serialize, then deserialize), which on a
 * 100,000-entry read was ten times this copy's time and most of its garbage.
 *
 * Anything other than plain objects, arrays and primitives (bytes, a Date, a class instance), and
 * any tree deeper than MAX_DEPTH (a cycle, say), is left to structuredClone, so the result is what
 * structuredClone would have given wherever that matters.
 */
const MAX_DEPTH = 64;

/** Thrown from deep inside a tree that `copyValue` hands to structuredClone whole. */
const TOO_DEEP = Symbol('too deep');

export function copyValue<T>(value: T): T {
  try {
    return copyTree(value, 0);
  } catch (error) {
    if (error === TOO_DEEP) return structuredClone(value);
    throw error;
  }
}

function copyTree<T>(value: T, depth: number): T {
  if (typeof value !== 'object' || value === null) {
    // Functions and symbols: structuredClone raises its DataCloneError, as it did for the whole.
    return typeof value === 'function' || typeof value === 'symbol' ? structuredClone(value) : value;
  }
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) {
    // map keeps holes where they are, as structuredClone does.
    return value.map((item) => copyTree(item, depth + 1)) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const item = copyTree((value as Record<string, unknown>)[key], depth + 1);
    // A `__proto__` key read from JSON is an own property; plain assignment would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}
