import { renderEntry } from '../compact/transcript.js';
import type { CompactionEntry, Entry, MessageEntry } from '../model/entry.js';
import type { Part } from '../model/parts.js';
import type { SessionHandle } from '../session/handle.js';
import type { Store } from '../store/store.js';

/**
 * Pegasus's archive, for any store: what the latest compaction summarized that no earlier summary
 * did — its entries from the previous compaction (whose summary opens it, as the seed's archive
 * file opens with the previous summary line) up to the compaction itself. On the JSONL store this
 * is exactly the archive file the summary line names.
 */
export interface LatestSpan {
  pivot: CompactionEntry;
  /** Seq of the span's first entry (the previous compaction, or 0). */
  fromSeq: number;
  /** The archive file (JSONL store); null for stores that keep no files. */
  name: string | null;
}

/** A store that names the archive file each compaction made (the JSONL store). */
type ArchiveNaming = Store & { archiveOf(sessionId: string, pivotId: string): Promise<string | undefined> };
const namesArchives = (store: Store): store is ArchiveNaming =>
  typeof (store as Partial<ArchiveNaming>).archiveOf === 'function';

export async function latestSpan(session: SessionHandle): Promise<LatestSpan | null> {
  const { pivotId } = session.record.state;
  if (pivotId === null) return null;
  const store = session.log.store;
  const pivot =
    session.activeEntries().find((e) => e.id === pivotId) ?? (await store.getEntry(session.id, pivotId));
  if (pivot?.kind !== 'compaction') return null;
  const previous = pivot.pivot.previousPivotId;
  const fromSeq = previous === null ? 0 : ((await store.getEntry(session.id, previous))?.seq ?? 0);
  const name = namesArchives(store) ? ((await store.archiveOf(session.id, pivot.id)) ?? null) : null;
  return { pivot, fromSeq, name };
}

/** Pegasus's answer when nothing was archived yet. */
export const NO_ARCHIVE = 'No archived session: this conversation has not been compacted yet.';

export interface ArchivedEntry {
  seq: number;
  id: string;
  text: string;
}

export type ArchiveRead =
  | { status: 'none'; message: string }
  | { status: 'refused'; message: string }
  | {
      status: 'ok';
      /** The archive file, or null when the store keeps none. */
      archive: string | null;
      /** The compaction whose summary stands for this archive. */
      compactionId: string;
      /** The archive's seqs and size, to page through it. */
      first: number;
      last: number;
      count: number;
      entries: ArchivedEntry[];
      /** The range to ask for next; null when this page reached the end of what was asked. */
      next: { from: number; to: number } | null;
    };

export interface ArchiveRequest {
  /** Must name the latest archive if given: anything else is refused. */
  file?: string;
  /** First and last seq to read, inclusive. */
  from?: number;
  to?: number;
}

export interface PageLimits {
  /** Entries per page (default 20). */
  entries?: number;
  /** Characters per page (default 24,000; at least one entry is always returned). */
  chars?: number;
  /** Characters of one entry, longer ones shortened in the middle (default 8,000). */
  entryChars?: number;
}

const DEFAULT_LIMITS: Required<PageLimits> = { entries: 20, chars: 24_000, entryChars: 8_000 };

/** One page of the latest archive, or why not. Never reads an older archive or outside the session. */
export async function readLatestArchive(
  session: SessionHandle,
  request: ArchiveRequest = {},
  limits: PageLimits = {},
): Promise<ArchiveRead> {
  const span = await latestSpan(session);
  if (span === null) return { status: 'none', message: NO_ARCHIVE };
  if (request.file !== undefined && request.file !== span.name) {
    const readable =
      span.name === null ? 'this session keeps no archive files: leave file out' : `only ${span.name}`;
    return {
      status: 'refused',
      message: `${request.file} cannot be read: ${readable} (the most recent archive) is readable`,
    };
  }
  const all = (await session.log.store.loadFrom(session.id, span.fromSeq)).filter(
    (e) => e.seq < span.pivot.seq,
  );
  const first = all[0]?.seq ?? span.fromSeq;
  const last = all.at(-1)?.seq ?? first;
  const from = request.from ?? first;
  const to = Math.min(request.to ?? last, last);
  if (from < first) {
    return {
      status: 'refused',
      message: `seq ${from} is before the most recent archive (seqs ${first}..${last}): older archives are not readable with this tool; history_search covers them`,
    };
  }
  if (from > last || to < from) {
    return {
      status: 'refused',
      message: `no entries in ${from}..${request.to ?? ''}: the most recent archive holds seqs ${first}..${last}`,
    };
  }
  const o = { ...DEFAULT_LIMITS, ...limits };
  const wanted = all.filter((e) => e.seq >= from && e.seq <= to);
  const entries: ArchivedEntry[] = [];
  let chars = 0;
  for (const entry of wanted) {
    const text = archivedText(entry, o.entryChars);
    if (entries.length > 0 && (entries.length >= o.entries || chars + text.length > o.chars)) break;
    entries.push({ seq: entry.seq, id: entry.id, text });
    chars += text.length;
  }
  const after = wanted[entries.length];
  return {
    status: 'ok',
    archive: span.name,
    compactionId: span.pivot.id,
    first,
    last,
    count: all.length,
    entries,
    next: after === undefined ? null : { from: after.seq, to },
  };
}

/** An entry as a transcript block, with the stored output of pruned tool calls shown. */
export function archivedText(entry: Entry, maxChars: number): string {
  if (entry.kind === 'compaction') return `Summary (compaction ${entry.id}): ${entry.pivot.summary}`;
  const parts = (entry.message.parts as Part[]).map((p) =>
    p.type === 'tool' && p.compactedAt !== undefined ? { ...p, compactedAt: undefined } : p,
  );
  const shown = { ...entry, message: { ...entry.message, parts } } as MessageEntry;
  return renderEntry(shown, { toolOutputChars: maxChars, textChars: maxChars, toolInputChars: 2_000 });
}
