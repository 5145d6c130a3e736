import type { JsonObject } from '../model/json.js';
import type { StoredEvent } from '../store/events.js';
import type { SessionSummary } from '../store/store.js';
import { shorten } from './turns.js';

/** A session of the fork family: who it was forked from, at which entry, how. */
export interface ForkNode {
  id: string;
  entries: number;
  /** The entry of the parent session it was forked at, and the fork mode. */
  at?: string;
  mode?: string;
  children: ForkNode[];
}

/** What a fork's metadata says of its origin (`metadata.forkedFrom`), if it is one. */
function forkedFrom(metadata: JsonObject): { session: string; entryId?: string; mode?: string } | undefined {
  const f = metadata.forkedFrom;
  if (f === null || typeof f !== 'object' || Array.isArray(f) || typeof f.session !== 'string')
    return undefined;
  return {
    session: f.session,
    ...(typeof f.entryId === 'string' ? { entryId: f.entryId } : {}),
    ...(typeof f.mode === 'string' ? { mode: f.mode } : {}),
  };
}

/**
 * The tree of forks `id` belongs to: from the oldest ancestor still in the store down through every
 * fork of a fork. A session with no fork either way is a tree of one.
 */
export function forkTree(sessions: readonly SessionSummary[], id: string): ForkNode {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const children = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const parent = forkedFrom(s.metadata)?.session;
    if (parent !== undefined && byId.has(parent)) children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  let root = id;
  const seen = new Set([root]);
  for (let up = forkedFrom(byId.get(root)?.metadata ?? {})?.session; up && byId.has(up) && !seen.has(up); ) {
    root = up;
    seen.add(up);
    up = forkedFrom(byId.get(up)!.metadata)?.session;
  }
  const visited = new Set<string>();
  const node = (sid: string): ForkNode => {
    visited.add(sid);
    const s = byId.get(sid);
    const from = s ? forkedFrom(s.metadata) : undefined;
    return {
      id: sid,
      entries: s?.entryCount ?? 0,
      ...(from?.entryId && sid !== root ? { at: from.entryId } : {}),
      ...(from?.mode && sid !== root ? { mode: from.mode } : {}),
      children: (children.get(sid) ?? [])
        .filter((c) => !visited.has(c.id))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((c) => node(c.id)),
    };
  };
  return node(root);
}

/** The ledger by channel; events this session quoted carry the seq of the quoting entry. */
export interface LedgerView {
  /** False when the store keeps no events ledger (the JSONL store). */
  available: boolean;
  /** How many events are listed: the ledger's first 1,000 and every event this session quoted. */
  listed: number;
  channels: { channel: string; events: LedgerEvent[] }[];
}

export interface LedgerEvent {
  id: string;
  at: number;
  author: string;
  body: string;
  /** The seq of this session's entry quoting it. */
  quotedAt?: number;
}

export function ledgerView(events: readonly StoredEvent[] | null, quoted: Map<string, number>): LedgerView {
  if (events === null) return { available: false, listed: 0, channels: [] };
  const channels = new Map<string, LedgerEvent[]>();
  for (const e of events) {
    const list = channels.get(e.channel) ?? [];
    const quotedAt = quoted.get(e.id);
    list.push({
      id: e.id,
      at: e.at,
      author: e.author,
      body: shorten(e.body),
      ...(quotedAt === undefined ? {} : { quotedAt }),
    });
    channels.set(e.channel, list);
  }
  return {
    available: true,
    listed: events.length,
    channels: [...channels].map(([channel, list]) => ({ channel, events: list })),
  };
}
