/** A piece of a text by offsets: [start, end). */
export interface Span {
  start: number;
  end: number;
}

/**
 * Ends of sentences (`.`, `!`, `?` before a space) and line breaks. A run of marks is matched only
 * from its first mark and only whole: without the two guards a long run of dots backtracks at every
 * position, quadratic in the run's length.
 */
const BREAK = /(?<![.!?])[.!?]+(?![.!?])["')\]]*(?=\s)|\n/g;

/** Characters of an over-long run without a space that a piece still shows. */
const RUN_SHOWN = 24;

/**
 * The sentences of a text, by offsets, whitespace trimmed: split after `.`, `!`, `?` and at line
 * breaks; a piece longer than `maxChars` is split again at the last space before the limit, so
 * no cut falls inside a word; a run without a space longer than `maxChars` (a base64 blob, a line
 * of dashes) is no word and is left out but for its first characters. Only the first `scan`
 * characters are read.
 */
export function sentenceSpans(text: string, maxChars = 400, scan = 8_000): Span[] {
  const limit = Math.min(text.length, scan);
  const out: Span[] = [];
  const wordEnd = (from: number, end: number) => {
    const space = text.indexOf(' ', from);
    return space < 0 || space > end ? end : space;
  };
  const push = (from: number, to: number) => {
    let s = from;
    let e = to;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    while (e - s > maxChars) {
      const space = text.lastIndexOf(' ', s + maxChars);
      const run = space > s ? space + 1 : s;
      const runEnd = wordEnd(run, e);
      if (runEnd - run <= maxChars) {
        out.push({ start: s, end: space });
        s = space;
      } else {
        // No word: a run without a space longer than the limit (a blob, a line of dots) shows only
        // its first characters after the words before it, and is never a piece of its own.
        if (run > s) out.push({ start: s, end: run + RUN_SHOWN });
        s = runEnd;
      }
      while (s < e && /\s/.test(text[s]!)) s++;
    }
    if (e > s) out.push({ start: s, end: e });
  };
  let from = 0;
  // One character past the limit, so a mark right at the limit still sees the space after it.
  const scanned = text.slice(0, limit + 1);
  BREAK.lastIndex = 0;
  for (let m = BREAK.exec(scanned); m !== null && m.index < limit; m = BREAK.exec(scanned)) {
    const end = m.index + m[0].length;
    push(from, end);
    from = end;
  }
  if (from < limit) {
    // The last piece ends at the scan limit only at a word boundary.
    const space = limit < text.length ? text.lastIndexOf(' ', limit) : limit;
    push(from, space > from && limit - space <= maxChars ? space : limit);
  }
  return out;
}

/** Whitespace flattened to single spaces. */
export function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The chosen sentences of a text, verbatim: neighbouring sentences as the one stretch of text they
 * are, separate stretches joined by " … ". `chosen` holds indices into `spans`.
 */
export function excerpt(text: string, spans: readonly Span[], chosen: readonly number[]): string {
  const sorted = [...chosen].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let k = 0; k < sorted.length; ) {
    let j = k;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(flat(text.slice(spans[sorted[k]!]!.start, spans[sorted[j]!]!.end)));
    k = j + 1;
  }
  return parts.join(' … ');
}

const COMMON = new Set(
  'a an the and or but if so to of in on at for with by from as is are was were be been it its this that these those i me my we our you your he she they them their what when where who how yes no not do does did have has had will would can could should just very really too also then than there here'.split(
    ' ',
  ),
);

/** The distinct words of a text that carry content, lowercased: what redundancy is measured on. */
export function contentWords(text: string): string[] {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}_./-]+/u))
    if (w.length > 1 && !COMMON.has(w)) out.add(w);
  return [...out];
}
