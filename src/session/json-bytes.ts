/**
 * How many UTF-8 bytes `JSON.stringify(after)` has more than `JSON.stringify(before)`, for two
 * plain objects that share most of their values (a tool part and its pruned copy): only the values
 * that differ are serialized, so a part whose large output is kept costs nothing to recount.
 * An object's JSON is `{`, its defined key-value pairs joined by commas, `}`; key order does not
 * change the length.
 */
export function jsonBytesDelta(before: object, after: object): number {
  const own = (o: object, key: string) =>
    Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
  let delta = 0;
  let pairs = 0;
  let pairsAfter = 0;
  for (const key of Object.keys(before)) {
    const was = own(before, key);
    if (was !== undefined) pairs++;
    if (!Object.hasOwn(after, key)) delta -= pairBytes(key, was);
  }
  for (const key of Object.keys(after)) {
    const now = own(after, key);
    const was = own(before, key);
    if (now !== undefined) pairsAfter++;
    if (now !== was) delta += pairBytes(key, now) - pairBytes(key, was);
  }
  // One comma between each two pairs.
  return delta + Math.max(0, pairsAfter - 1) - Math.max(0, pairs - 1);
}

/** Bytes of `"key":value` in an object's JSON; 0 when the value is left out (undefined). */
function pairBytes(key: string, value: unknown): number {
  if (value === undefined) return 0;
  return Buffer.byteLength(JSON.stringify(key)) + 1 + Buffer.byteLength(JSON.stringify(value));
}
