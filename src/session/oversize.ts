import type { NamedMessage } from '../compact/errors.js';
import type { Entry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import type { Estimator } from '../tokens/estimator.js';
import { jsonBytesDelta } from './json-bytes.js';

/**
 * Requests that cannot fit: a provider caps a request's bytes as well as its tokens (images are few
 * tokens but many bytes), and one message larger than the window fits no request at all. Pure
 * measures here; the session decides what to do with them (prepare.ts).
 */

const bytesOf = new WeakMap<Entry, number>();

/** UTF-8 bytes an entry adds to a request: its message as JSON (base64 files included), or its summary. */
export function entryBytes(entry: Entry): number {
  let n = bytesOf.get(entry);
  if (n === undefined) {
    n =
      entry.kind === 'message'
        ? Buffer.byteLength(JSON.stringify(entry.message.parts))
        : Buffer.byteLength(entry.pivot.summary);
    bytesOf.set(entry, n);
  }
  return n;
}

/**
 * The bytes of `entry`, a rewrite of `was` (same id): from `was`'s bytes and the parts that differ
 * when both are messages with as many parts (a prune marks or erases outputs), else counted anew.
 */
function rewrittenBytes(was: Entry, entry: Entry): number {
  const known = bytesOf.get(entry);
  if (known !== undefined) return known;
  if (was.kind !== 'message' || entry.kind !== 'message') return entryBytes(entry);
  const before = was.message.parts;
  const after = entry.message.parts;
  if (before.length !== after.length) return entryBytes(entry);
  let n = entryBytes(was);
  for (let i = 0; i < after.length; i++)
    if (after[i] !== before[i]) n += jsonBytesDelta(before[i]!, after[i]!);
  bytesOf.set(entry, n);
  return n;
}

/**
 * The bytes of a window, kept up to date as it changes: a window grows in place (appends push
 * onto the same array) or is replaced by a new array. A new one that holds the old one's entries
 * at the same positions, some rewritten in place (a prune, a completed call), costs a pass of
 * reference checks and a count of the rewritten entries; only one that moved or dropped entries
 * (a compaction) is counted again whole.
 */
export class WindowBytes {
  private window: readonly Entry[] = [];
  private counted = 0;
  private total = 0;

  of(active: readonly Entry[]): number {
    if (active !== this.window && !this.rewritten(active)) {
      this.counted = 0;
      this.total = 0;
    }
    this.window = active;
    for (; this.counted < active.length; this.counted++) this.total += entryBytes(active[this.counted]!);
    return this.total;
  }

  /** Moves the total to `next` when it holds the counted entries in place, some rewritten. */
  private rewritten(next: readonly Entry[]): boolean {
    const was = this.window;
    if (next.length < this.counted || was.length < this.counted) return false;
    let delta = 0;
    for (let i = 0; i < this.counted; i++) {
      const a = was[i]!;
      const b = next[i]!;
      if (a === b) continue;
      if (a.id !== b.id) return false;
      delta += rewrittenBytes(a, b) - entryBytes(a);
    }
    this.total += delta;
    return true;
  }
}

/** The largest message of a window by the given measure. */
export function largestMessage(active: readonly Entry[], by: 'tokens' | 'bytes'): NamedMessage | null {
  let best: NamedMessage | null = null;
  for (const e of active) {
    if (e.kind !== 'message') continue;
    const m = { entryId: e.id, seq: e.seq, role: e.message.role, tokens: e.tokens, bytes: entryBytes(e) };
    if (best === null || m[by] >= best[by]) best = m; // the newest of equals: the likeliest to be the latest request
  }
  return best;
}

/** With `oversize: 'truncate'`: the share of the usable budget one text part may take. */
export const TRUNCATE_SHARE = 0.5;

/** Characters kept from each end of a truncated text. */
const KEPT_EACH_END = 0.45;

/**
 * With `oversize: 'truncate'`: text parts over `maxTokens` keep their start and end around a
 * visible marker saying how much was left out; the full text stays in the message's metadata
 * (`condenseOriginal`, by part index), so nothing is lost from the history.
 */
export function truncateOversized(
  messages: readonly Message[],
  maxTokens: number,
  estimator: Estimator,
): Message[] {
  return messages.map((m) => {
    const originals: Record<string, string> = {};
    const parts = m.parts.map((p, i) => {
      if (p.type !== 'text') return p;
      const tokens = estimator.text(p.text);
      if (tokens <= maxTokens) return p;
      const keep = Math.floor((p.text.length * maxTokens * KEPT_EACH_END) / tokens);
      const left = p.text.length - 2 * keep;
      originals[i] = p.text;
      const marker = `\n\n[… ${left} of ${p.text.length} characters left out by condense: this message is larger than the context window allows; the full text is kept in the session's history …]\n\n`;
      return { ...p, text: p.text.slice(0, keep) + marker + p.text.slice(p.text.length - keep) };
    });
    if (Object.keys(originals).length === 0) return m;
    return { ...m, parts, metadata: { ...m.metadata, condenseOriginal: originals } } as Message;
  });
}
