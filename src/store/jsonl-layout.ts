import type { Entry } from '../model/entry.js';
import { encodeLine } from './jsonl-lines.js';

/** The file every session appends to (Pegasus's layout). */
export const CURRENT = 'current.jsonl';

/** What loadFrom needs to know of a file without reading it: how many entries, which seqs. */
export interface FileStats {
  count: number;
  /** Lowest and highest seq in the file; both -1 while it is empty. */
  minSeq: number;
  maxSeq: number;
}

export interface ArchiveStats extends FileStats {
  name: string;
}

export const EMPTY_STATS: FileStats = { count: 0, minSeq: -1, maxSeq: -1 };

function withEntries(stats: FileStats, entries: readonly Entry[]): FileStats {
  let { count, minSeq, maxSeq } = stats;
  for (const { seq } of entries) {
    minSeq = count === 0 ? seq : Math.min(minSeq, seq);
    maxSeq = count === 0 ? seq : Math.max(maxSeq, seq);
    count++;
  }
  return { count, minSeq, maxSeq };
}

/** A file a batch starts: one per compaction entry, which is its first line. */
export interface NewFile {
  text: string;
  stats: FileStats;
}

/**
 * Where a batch goes. Entries before the first compaction entry are appended to the current file;
 * each compaction entry then archives the file before it under a timestamped name and starts a
 * new one. The last file started becomes the new current file.
 */
export interface LayoutPlan {
  /** Lines appended to the current file (before any rotation), newline-terminated. */
  append: string;
  appendStats: FileStats;
  /** Names of the archives this batch makes, oldest first: the current file, then new files but the last. */
  archives: string[];
  /** Files started by the batch's compaction entries, oldest first. */
  files: NewFile[];
}

/**
 * Lays out a batch after a current file with `current` stats. `taken` says whether an archive
 * name is already used (on disk); names made within the batch are checked too.
 */
export function planLayout(
  entries: readonly Entry[],
  current: FileStats,
  taken: (name: string) => boolean,
): LayoutPlan {
  const used = new Set<string>();
  const plan: LayoutPlan = { append: '', appendStats: current, archives: [], files: [] };
  let lines: string[] = [];
  let segment: Entry[] = [];
  const close = () => {
    const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    const last = plan.files.at(-1);
    if (last === undefined) {
      plan.append = text;
      plan.appendStats = withEntries(current, segment);
    } else {
      last.text += text;
      last.stats = withEntries(last.stats, segment);
    }
    lines = [];
    segment = [];
  };
  for (const entry of entries) {
    if (entry.kind === 'compaction') {
      close();
      const name = archiveName(entry.createdAt, (n) => used.has(n) || taken(n));
      used.add(name);
      plan.archives.push(name);
      plan.files.push({ text: `${encodeLine(entry, name)}\n`, stats: withEntries(EMPTY_STATS, [entry]) });
    } else {
      lines.push(encodeLine(entry));
      segment.push(entry);
    }
  }
  close();
  return plan;
}

/**
 * `{YYYYMMDDTHHMMSS}.jsonl` in UTC at the compaction's time, with `-1`, `-2`… when a
 * name is taken (two compactions in one second), never overwriting an archive.
 */
export function archiveName(at: number, taken: (name: string) => boolean): string {
  // A time outside years 0–9999 has no such stamp (a made-up createdAt): the present stands in.
  const when = at >= 0 && at < LAST_STAMPABLE ? at : Date.now();
  const stamp = new Date(when).toISOString().replace(/[-:]/g, '').slice(0, 15);
  for (let n = 0; ; n++) {
    const name = n === 0 ? `${stamp}.jsonl` : `${stamp}-${n}.jsonl`;
    if (!taken(name)) return name;
  }
}

const LAST_STAMPABLE = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
