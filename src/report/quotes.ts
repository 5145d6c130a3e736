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

/**
 * Finds each piece in `texts` (one per summarized message, the previous summary first when there
 * is one) in one pass over them, whatever their length: a rolling hash of every MIN_QUOTE_CHARS
 * window is looked up among the pieces' first windows (a bit table first, so most windows cost a
 * few operations), and a hit is checked character for character. A piece that is part of a longer
 * piece already found is not listed again.
 */
export function findQuotes(pieces: readonly string[], texts: readonly string[]): Quote[] {
  const w = MIN_QUOTE_CHARS;
  const heads = new Map<number, number[]>();
  const bits = new Uint8Array(1 << 17);
  pieces.forEach((piece, i) => {
    if (piece.length < w) return;
    const h = hashOf(piece, w);
    heads.set(h, [...(heads.get(h) ?? []), i]);
    bits[(h >>> 3) & 0x1ffff]! |= 1 << (h & 7);
  });
  const first: (Quote | undefined)[] = new Array(pieces.length);
  let missing = heads.size === 0 ? 0 : pieces.filter((p) => p.length >= w).length;
  const drop = powMod(BASE, w - 1);
  texts.forEach((text, source) => {
    if (missing === 0 || text.length < w) return;
    let h = hashOf(text, w);
    for (let at = 0; ; at++) {
      if ((bits[(h >>> 3) & 0x1ffff]! & (1 << (h & 7))) !== 0) {
        for (const i of heads.get(h) ?? []) {
          if (first[i] === undefined && text.startsWith(pieces[i]!, at)) {
            first[i] = { text: pieces[i]!, source };
            missing--;
          }
        }
      }
      if (at + w >= text.length) break;
      h = (Math.imul(h - Math.imul(text.charCodeAt(at), drop), BASE) + text.charCodeAt(at + w)) | 0;
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

/** Polynomial hash of the first `w` characters, modulo 2^32 (Math.imul wraps like the rolling step). */
function hashOf(text: string, w: number): number {
  let h = 0;
  for (let i = 0; i < w; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  return h;
}

function powMod(base: number, exp: number): number {
  let r = 1;
  for (let i = 0; i < exp; i++) r = Math.imul(r, base);
  return r;
}
