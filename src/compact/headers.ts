/**
 * Applications write who spoke and when in different places: in message metadata, or at the start
 * of the text (`[8 May 2023] Caroline: …`, `Caroline: …`). A summary that weighed those prefixes as
 * content would choose differently for the same conversation written another way, and quote the
 * same name and date on every line. This reads such a header where most messages of a span carry
 * one, so that selection sees the words alone and the summary shows the speaker and the day once.
 */

export interface Header {
  /** The speaker the text names. */
  who?: string;
  /** The time the text names (ms since epoch, read as UTC). */
  at?: number;
  /** Characters of the header, spaces after it included: the words start here. */
  length: number;
}

const BRACKET = /^\s*\[([^\]\n]{4,60})\]\s*/;
const NAME = /^([\p{Lu}][\p{L}\p{N}'’._-]{0,30}(?: [\p{Lu}][\p{L}\p{N}'’._-]{0,30}){0,2}): +/u;
/** A header is read only when at least this share of a span's messages carry one of its kind. */
const MOST = 0.6;
/** Speaker names a conversation has at most, for a leading "Name:" to count as one. */
const MAX_SPEAKERS = 8;

/** "1:56 pm on 8 May, 2023", "2023-05-08 13:56", "May 8, 2023": the time it names, else undefined. */
export function parseHeaderTime(text: string): number | undefined {
  const on = /^(.+?)\s+on\s+(.+)$/i.exec(text.trim());
  const candidate = on ? `${on[2]} ${on[1]}` : text.trim();
  if (!/\d/.test(candidate)) return undefined;
  const zoned = /(?:Z|UTC|GMT|[+-]\d\d:?\d\d)$/i.test(candidate) ? candidate : `${candidate} UTC`;
  const ms = Date.parse(zoned);
  if (Number.isFinite(ms)) return ms;
  const plain = Date.parse(candidate);
  return Number.isFinite(plain) ? plain : undefined;
}

interface Raw {
  bracket?: string;
  bracketLength: number;
  name?: string;
  nameLength: number;
}

function rawHeader(text: string): Raw {
  const b = BRACKET.exec(text);
  const rest = b ? text.slice(b[0].length) : text;
  const n = NAME.exec(rest);
  return {
    ...(b ? { bracket: b[1] } : {}),
    bracketLength: b ? b[0].length : 0,
    ...(n ? { name: n[1] } : {}),
    nameLength: n ? n[0].length : 0,
  };
}

/**
 * The header of each text, read only where the span's layout has one: a bracketed time on most
 * messages, a speaker name from a small recurring set on most messages. Null where a text has none
 * (or the layout has none). Pure.
 */
export function readHeaders(texts: readonly string[]): Array<Header | null> {
  if (texts.length < 2) return texts.map(() => null);
  const raw = texts.map(rawHeader);
  const times = raw.map((r) => (r.bracket === undefined ? undefined : parseHeaderTime(r.bracket)));
  const timed = times.filter((t) => t !== undefined).length >= MOST * texts.length;
  const names = new Map<string, number>();
  for (const r of raw) if (r.name !== undefined) names.set(r.name, (names.get(r.name) ?? 0) + 1);
  const speakers = [...names].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]);
  const top = speakers.slice(0, MAX_SPEAKERS);
  const covered = top.reduce((a, [, n]) => a + n, 0);
  const named = top.length > 0 && covered >= MOST * texts.length;
  const known = new Set(top.map(([n]) => n));
  return raw.map((r, i) => {
    const at = timed ? times[i] : undefined;
    // A name counts only at the start, or after a bracket read as the time.
    const afterBracket = r.bracketLength === 0 || at !== undefined;
    const who = named && afterBracket && r.name !== undefined && known.has(r.name) ? r.name : undefined;
    if (at === undefined && who === undefined) return null;
    const length = (at !== undefined ? r.bracketLength : 0) + (who ? r.nameLength : 0);
    return { ...(who ? { who } : {}), ...(at !== undefined ? { at } : {}), length };
  });
}
