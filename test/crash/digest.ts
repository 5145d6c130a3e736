/**
 * What the crash child tells the parent about each write, and how both sides fingerprint stored
 * values: key order and `undefined` fields (which no store keeps) do not change a digest.
 */
import { createHash } from 'node:crypto';
import type { Entry } from '../../src/model/entry.js';
import type { SessionRecord } from '../../src/model/session.js';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = canonical(v);
  }
  return out;
}

export function digest(value: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify(canonical(value)))
    .digest('hex')
    .slice(0, 16);
}

/** What a message entry's parts update changes. */
export const partsDigest = (e: Entry) =>
  digest(e.kind === 'message' ? [e.message.parts, e.partTokens, e.tokens] : null);

/** A session row as a commit leaves it (updatedAt aside: the store sets it). */
export interface RowDigest {
  version: number;
  headId: string | null;
  nextSeq: number;
  state: string;
}

export const rowDigest = (r: Pick<SessionRecord, 'version' | 'headId' | 'nextSeq' | 'state'>): RowDigest => ({
  version: r.version,
  headId: r.headId,
  nextSeq: r.nextSeq,
  state: digest(r.state),
});

/** One session a write changes: its row before and after, and what happens to its entries. */
export interface SessionChange {
  id: string;
  /** The row before the write; null when the write creates the session. */
  before: RowDigest | null;
  after: RowDigest;
  /** Entries the write adds (by id, seq and digest of the whole entry). */
  added: { id: string; seq: number; digest: string }[];
  /** Entries whose parts the write replaces: parts digests before and after. */
  updated: { id: string; before: string; after: string }[];
}

/** A line `intent <json>`: a store write about to start; `done <n>` follows when it returned. */
export interface Intent {
  n: number;
  method: string;
  changes: SessionChange[];
}
