import type { Entry } from '../model/entry.js';
import type { Message, Role } from '../model/message.js';
import type { Part } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import type { SearchQuery } from './search-query.js';
import { snippet } from './search-snippet.js';

export interface SearchOptions {
  /** Only this session's entries. */
  sessionId?: string;
  /** At most this many hits (default 20, at most 1,000). */
  limit?: number;
}

/** One entry a full-text search found: where it is, and an excerpt to decide whether to read it. */
export interface EntryHit {
  sessionId: string;
  entryId: string;
  seq: number;
  kind: Entry['kind'];
  /** The message's role; null for a compaction entry (its summary is what matched). */
  role: Role | null;
  createdAt: number;
  /** One line around the first match, matched words in «», "…" where text was cut. */
  snippet: string;
  /** Relevance, higher is better (bm25); comparable only within one search. */
  score: number;
}

/**
 * The text a search looks in: every word the entry holds, whatever the view shows now — tool
 * outputs hidden by pruning and summaries of pivots included (a summarized span stays findable
 * through its own entries). Tool calls give their name, input and output or error.
 */
export function entrySearchText(entry: Entry): string {
  return entry.kind === 'compaction' ? entry.pivot.summary : messageSearchText(entry.message);
}

export function messageSearchText(message: Message): string {
  return message.parts
    .map(partText)
    .filter((t) => t !== '')
    .join('\n');
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text;
    case 'file':
      return part.filename ?? '';
    case 'compaction':
      return part.instructions ?? '';
    case 'tool':
      return [part.name, JSON.stringify(part.input) ?? '', toolOutputText(part)].join('\n');
  }
}

/** The hit for a found entry, its snippet cut from the same text the search looked in. */
export function entryHit(entry: Entry, score: number, query: SearchQuery): EntryHit {
  return {
    sessionId: entry.sessionId,
    entryId: entry.id,
    seq: entry.seq,
    kind: entry.kind,
    role: entry.kind === 'message' ? entry.message.role : null,
    createdAt: entry.createdAt,
    snippet: snippet(entrySearchText(entry), query.terms),
    score,
  };
}

/** The best `limit` of scored entries as hits; snippets are cut only for those. */
export function topHits(
  ranked: readonly { key: Entry; score: number }[],
  query: SearchQuery,
  limit: number,
): EntryHit[] {
  const order = ({ key, score }: { key: Entry; score: number }) => ({ ...key, score });
  return [...ranked]
    .sort((a, b) => compareHits(order(a), order(b)))
    .slice(0, limit)
    .map((r) => entryHit(r.key, r.score, query));
}

/** Hits best first; equal scores newest first, so the latest mention of a fact leads. */
export function compareHits(
  a: Pick<EntryHit, 'score' | 'createdAt' | 'sessionId' | 'seq'>,
  b: Pick<EntryHit, 'score' | 'createdAt' | 'sessionId' | 'seq'>,
): number {
  const bySession = a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
  return b.score - a.score || b.createdAt - a.createdAt || bySession || b.seq - a.seq;
}
