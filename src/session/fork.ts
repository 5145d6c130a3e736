import { randomUUID } from 'node:crypto';
import { isMarkerOnly } from '../compact/turns.js';
import { type CompactionEntry, type Entry, isCompactionEntry, latestPivot } from '../model/entry.js';
import { emptySessionState, type SessionRecord } from '../model/session.js';
import type { Store } from '../store/store.js';
import { stateFromEntries } from './state.js';

/**
 * How a fork starts (Nexus "Smart Forking"):
 * - 'exact' (default): the log as it stood at the fork point, pivots included, so the fork's view
 *   is exactly what the model saw then — no history from before a pivot leaks in.
 * - 'full': every message up to the fork point verbatim, no pivots ("full reconstruction").
 * - 'summary': Nexus's literal default. If a later compaction summarized the fork point,
 *   the fork keeps the log up to the fork point (full history stays traversable) and ends it with a
 *   pivot carrying that compaction's summary, so its view is that summary alone (it may mention
 *   turns after the fork point: `details.extra.forkedFromCompaction` says through which entry it
 *   reaches); else 'exact'.
 */
export type ForkMode = 'exact' | 'full' | 'summary';

export interface ForkPlan {
  entries: Entry[];
  /** The compaction whose summary seeds a 'summary' fork. */
  fromSummary: CompactionEntry | null;
}

/** The compaction that summarized `entry`: the first pivot after it whose summarized span holds it. */
export function compactionThatSummarized(log: Entry[], entry: Entry): CompactionEntry | null {
  const seqOf = new Map(log.map((e) => [e.id, e.seq]));
  for (const e of log) {
    if (!isCompactionEntry(e) || e.seq <= entry.seq) continue;
    const through = seqOf.get(e.pivot.summarizedThroughId) ?? -1;
    if (entry.seq <= through) return e;
  }
  return null;
}

/** Pure: which entries the new session starts with. `log` is the source's whole log in seq order. */
export function planFork(log: Entry[], atId: string, mode: ForkMode): ForkPlan {
  const at = log.find((e) => e.id === atId);
  if (!at) throw new Error(`cannot fork: no entry '${atId}' in the session`);
  const upTo = log.filter((e) => e.seq <= at.seq);
  if (mode === 'full') return { entries: upTo.filter((e) => e.kind === 'message'), fromSummary: null };
  if (mode === 'summary') {
    const summarizer = compactionThatSummarized(log, at);
    const seed = summarizer && summaryPivot(upTo, summarizer);
    if (seed) return { entries: [...upTo, seed], fromSummary: summarizer };
  }
  return { entries: upTo, fromSummary: null };
}

/**
 * The pivot that ends a summary fork: `source`'s summary standing for the fork's own window (what
 * the view showed after the fork point's latest pivot), keeping nothing. Null when that window has
 * no message (the fork point is a pivot that kept nothing: its view is already a summary).
 */
function summaryPivot(prefix: Entry[], source: CompactionEntry): CompactionEntry | null {
  const previous = latestPivot(prefix);
  const firstKept = previous?.pivot.firstKeptId;
  const from = firstKept ? (prefix.find((e) => e.id === firstKept)?.seq ?? 0) : (previous?.seq ?? -1) + 1;
  const last = prefix.findLast((e) => e.seq >= from && e.kind === 'message' && !isMarkerOnly(e));
  if (!last) return null;
  const { markerId: _marker, details, ...pivot } = source.pivot;
  const forkedFromCompaction = { id: source.id, summarizedThroughId: pivot.summarizedThroughId };
  return {
    ...structuredClone(source),
    pivot: {
      ...structuredClone(pivot),
      summarizedThroughId: last.id,
      firstKeptId: null,
      previousPivotId: previous?.id ?? null,
      tokensBefore: stateFromEntries(prefix, emptySessionState()).activeTokens,
      tokensAfter: source.tokens,
      details: { ...structuredClone(details), extra: { ...details.extra, forkedFromCompaction } },
    },
  };
}

/** Writes the fork as a new session, renumbered and relinked; the source is never changed. */
export async function writeFork(
  store: Store,
  source: SessionRecord,
  newId: string,
  plan: ForkPlan,
  atId: string,
  mode: ForkMode,
  now: number,
): Promise<void> {
  if (await store.getSession(newId)) throw new Error(`cannot fork: session '${newId}' already exists`);
  // A summary fork's pivot is the fork's own compaction, made now at the fork point: its turns
  // continue from it, not from the source's compaction that came after that point.
  const seeded = plan.fromSummary ? plan.entries.length - 1 : -1;
  const ids = plan.entries.map((e, i) => (i === seeded ? randomUUID() : e.id));
  const entries: Entry[] = plan.entries.map((e, i) => ({
    ...structuredClone(e),
    ...(i === seeded ? { id: ids[i]!, createdAt: now } : {}),
    sessionId: newId,
    seq: i,
    parentId: i === 0 ? null : ids[i - 1]!,
  }));
  const metadata = { ...source.metadata, forkedFrom: { session: source.id, entryId: atId, mode } };
  const record: SessionRecord = {
    id: newId,
    createdAt: now,
    updatedAt: now,
    headId: null,
    version: 0,
    nextSeq: 0,
    metadata,
    state: emptySessionState(),
  };
  // One transaction: the fork exists whole or not at all.
  await store.createSession(record, {
    entries,
    commit: {
      sessionId: newId,
      expectedVersion: 0,
      headId: entries.at(-1)?.id ?? null,
      nextSeq: entries.length,
      state: { ...stateFromEntries(entries, record.state), calibration: source.state.calibration },
      metadata,
    },
  });
}
