import type { Entry } from '../model/entry.js';
import type { SessionRecord, SessionState } from '../model/session.js';
import type { Store } from '../store/store.js';
import { readTail, type WindowBound } from './window-read.js';

/** The window held in memory and the seq it starts at (above activeFromSeq when only the tail is). */
export interface Held {
  active: Entry[];
  heldFromSeq: number;
}

/** The window of `record`, whole or (past the bound) its tail. */
export async function loadWindow(
  store: Store,
  record: SessionRecord,
  bound: WindowBound | null,
): Promise<Held> {
  const { activeFromSeq, activeTokens } = record.state;
  if (bound === null || activeTokens <= bound.maxTokens) {
    return { active: await store.loadFrom(record.id, activeFromSeq), heldFromSeq: activeFromSeq };
  }
  const range = { fromSeq: activeFromSeq, toSeq: record.nextSeq };
  const perEntry = activeTokens / Math.max(1, range.toSeq - range.fromSeq);
  const tail = await readTail(store, record.id, range, bound.tailTokens, perEntry);
  return { active: tail.entries, heldFromSeq: tail.fromSeq };
}

/** Rewrites a session remembers: enough for any reader a few writes behind. */
export const REWRITES_KEPT = 16;

/** The state of a write that replaced parts of held entries, the lowest at `fromSeq` (see staleFrom). */
export function withRewrite(state: SessionState, before: SessionState, fromSeq: number): SessionState {
  const n = (before.rewrites ?? 0) + 1;
  const rewritten: [number, number][] = [...(before.rewritten ?? []), [n, fromSeq]];
  return { ...state, rewrites: n, rewritten: rewritten.slice(-REWRITES_KEPT) };
}

/** The lowest seq among entries `ids` in `active`, newest first (updates are mostly recent); 0 if one is not held. */
export function lowestSeq(active: readonly Entry[], ids: readonly string[]): number {
  const wanted = new Set(ids);
  let lowest = Number.POSITIVE_INFINITY;
  for (let i = active.length - 1; i >= 0 && wanted.size > 0; i--) {
    if (wanted.delete(active[i]!.id)) lowest = active[i]!.seq;
  }
  return wanted.size > 0 ? 0 : lowest;
}

/**
 * The lowest seq from which a held window may differ from the stored session: the held nextSeq
 * when other writers only appended (or compacted: a pivot is appended too), lower when they
 * replaced parts of entries (the session remembers where its last rewrites began). Null when only
 * a fresh load can tell: the log went back, or the reader is more rewrites behind than remembered.
 */
export function staleFrom(held: SessionRecord, stored: SessionRecord): number | null {
  if (stored.nextSeq < held.nextSeq || stored.state.activeFromSeq < held.state.activeFromSeq) return null;
  const seen = held.state.rewrites ?? 0;
  const missed = (stored.state.rewrites ?? 0) - seen;
  if (missed < 0) return null;
  const remembered = (stored.state.rewritten ?? []).filter(([n]) => n > seen);
  if (remembered.length < missed) return null;
  return remembered.reduce((from, [, seq]) => Math.min(from, seq), held.nextSeq);
}

/**
 * What a Log must hold to match the stored session: its entries below `from` (and from
 * `heldFromSeq` on) followed by `entries`, or a whole new window.
 */
export type CatchUp =
  | { record: SessionRecord; from: number; entries: Entry[]; heldFromSeq: number }
  | { record: SessionRecord; window: Held };

/**
 * Reads what changed since `held` was read: the session row (a primary-key read; only its version
 * while that is unchanged, where the store can read it alone), then the entries
 * from where they may differ — those other writers appended, and any whose parts they replaced.
 * A write that lost a race thus costs what changed, not O(window).
 */
export async function catchUp(
  store: Store,
  held: { record: SessionRecord; heldFromSeq: number },
  bound: WindowBound | null,
): Promise<CatchUp> {
  const { id, nextSeq, version } = held.record;
  // Every write bumps the version: the same version is the same row, which need not be read.
  if (store.sessionVersion !== undefined && (await store.sessionVersion(id)) === version)
    return { record: held.record, from: nextSeq, entries: [], heldFromSeq: held.heldFromSeq };
  const record = await store.getSession(id);
  if (!record) throw new Error(`session ${id} no longer exists`);
  if (record.version === version)
    return { record, from: nextSeq, entries: [], heldFromSeq: held.heldFromSeq };
  const stale = staleFrom(held.record, record);
  // A pivot moves the window's start forward: what it left behind is dropped, not read.
  const heldFromSeq = Math.max(held.heldFromSeq, record.state.activeFromSeq);
  if (stale !== null) {
    const from = Math.max(stale, heldFromSeq);
    // Up to the row's nextSeq only: entries of a later commit belong with a later row.
    const entries = await store.loadFrom(id, from, record.nextSeq);
    if (entries.length === record.nextSeq - from) return { record, from, entries, heldFromSeq };
  }
  return { record, window: await loadWindow(store, record, bound) };
}
