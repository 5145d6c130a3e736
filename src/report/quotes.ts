/**
 * What a summary quotes from the conversation it replaced: the pieces of its text (lines, the
 * values after a short label, quoted strings, the parts around an ellipsis) found word for word in
 * a summarized message or in the previous summary. A piece found nowhere is the summarizer's own
 * wording, not a quote.
 */

/** Shorter pieces match by accident ("the tests pass"); longer ones are split at ellipses anyway. */
export const MIN_QUOTE_CHARS = 24;
/** At most this many pieces are looked up per summary (its longest lines come first). */
export const MAX_PIECES = 200;

const BULLET = /^\s*(?:[-*•>]+|\d+[.)]|#+)\s*/;
const LABEL = /^[^:\n]{1,40}:\s+(.+)$/;
const QUOTED = /"([^"\n]{24,})"|“([^”\n]{24,})”|'([^'\n]{24,})'|`([^`\n]{24,})`/g;

/** The candidate pieces of a summary, longest first, each once. */
export function quotePieces(summary: string): string[] {
  const pieces = new Set<string>();
  const add = (text: string | undefined) => {
    for (const piece of (text ?? '').split(/…|\.\.\.|\[…\]/)) {
      const t = piece.trim();
      if (t.length >= MIN_QUOTE_CHARS) pieces.add(t);
    }
  };
  for (const raw of summary.split('\n')) {
    const line = raw.replace(BULLET, '');
    add(line);
    add(LABEL.exec(line)?.[1]);
    for (const m of line.matchAll(QUOTED)) add(m[1] ?? m[2] ?? m[3] ?? m[4]);
  }
  return [...pieces].sort((a, b) => b.length - a.length).slice(0, MAX_PIECES);
}

export interface Quote {
  text: string;
  /** Index into the searched texts where it was found first. */
  source: number;
}

/** Characters hashed at each sampled position of a text; positions are STEP apart. */
const WINDOW = 8;
const STEP = 8;

/**
 * Finds each piece in `texts` (one per summarized message, the previous summary first when there
 * is one) in one pass over them, whatever their length. Only every STEP-th position of a text is
 * hashed: a piece (at least MIN_QUOTE_CHARS long) found at position t covers one such position
 * within its first STEP characters, and the WINDOW characters from there lie inside the piece, so
 * the pieces' windows at offsets 0..STEP-1 are indexed (a bit table first, so most positions cost
 * a few operations) and a hit is checked character for character from where the piece would
 * start. A piece that is part of a longer piece already found is not listed again.
 */
export function findQuotes(pieces: readonly string[], texts: readonly string[]): Quote[] {
  const heads = new Map<number, [piece: number, offset: number][]>();
  const bits = new Uint8Array(1 << 17);
  let missing = 0;
  pieces.forEach((piece, i) => {
    if (piece.length < MIN_QUOTE_CHARS) return;
    missing++;
    for (let offset = 0; offset < STEP; offset++) {
      const h = hashAt(piece, offset);
      const list = heads.get(h);
      if (list) list.push([i, offset]);
      else heads.set(h, [[i, offset]]);
      bits[(h >>> 3) & 0x1ffff]! |= 1 << (h & 7);
    }
  });
  const first: (Quote | undefined)[] = new Array(pieces.length);
  texts.forEach((text, source) => {
    if (missing === 0 || text.length < MIN_QUOTE_CHARS) return;
    for (let at = 0; at + WINDOW <= text.length; at += STEP) {
      const h = hashAt(text, at);
      if ((bits[(h >>> 3) & 0x1ffff]! & (1 << (h & 7))) === 0) continue;
      for (const [i, offset] of heads.get(h) ?? []) {
        const start = at - offset;
        if (start >= 0 && first[i] === undefined && text.startsWith(pieces[i]!, start)) {
          first[i] = { text: pieces[i]!, source };
          missing--;
        }
      }
    }
  });
  const found: Quote[] = [];
  pieces.forEach((_, i) => {
    const q = first[i];
    if (q && !found.some((f) => f.text.includes(q.text))) found.push(q);
  });
  return found;
}

const BASE = 0x01000193;

/** Polynomial hash of the WINDOW characters from `at`, modulo 2^32. */
function hashAt(text: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + WINDOW; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  return h;
}
