/** A piece of a text by offsets: [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** Ends of sentences (`.`, `!`, `?` before a space) and line breaks. */
const BREAK = /[.!?]+["')\]]*(?=\s)|\n/g;

/**
 * The sentences of a text, by offsets, whitespace trimmed: split after `.`, `!`, `?` and at line
 * breaks; a piece longer than `maxChars` is split again at the last space before the limit, so
 * no cut ever falls inside a word. Only the first `scan` characters are read.
 */
export function sentenceSpans(text: string, maxChars = 400, scan = 8_000): Span[] {
  const limit = Math.min(text.length, scan);
  const out: Span[] = [];
  const push = (from: number, to: number) => {
    let s = from;
    let e = to;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    while (e - s > maxChars) {
      // Cut at the last space before the limit; a word longer than the limit stays whole.
      let cut = text.lastIndexOf(' ', s + maxChars);
      if (cut <= s) cut = text.indexOf(' ', s + maxChars);
      if (cut < 0 || cut >= e) break;
      out.push({ start: s, end: cut });
      s = cut;
      while (s < e && /\s/.test(text[s]!)) s++;
    }
    if (e > s) out.push({ start: s, end: e });
  };
  let from = 0;
  BREAK.lastIndex = 0;
  for (let m = BREAK.exec(text); m !== null && m.index < limit; m = BREAK.exec(text)) {
    const end = m.index + m[0].length;
    push(from, end);
    from = end;
  }
  if (from < limit) {
    // The last piece ends at the scan limit only at a word boundary.
    const space = limit < text.length ? text.lastIndexOf(' ', limit) : limit;
    push(from, space > from ? space : limit);
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
