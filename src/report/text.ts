/** Text for HTML: the five characters that could end an attribute or start markup, escaped. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A token figure for a label: 950, 12.3k, 1.2M. */
export function tokens(n: number): string {
  const a = Math.abs(n);
  if (a >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (a >= 1_000) return `${trim(n / 1_000)}k`;
  return String(Math.round(n));
}

const trim = (v: number) =>
  Math.abs(v) >= 100 ? Math.round(v).toString() : (Math.round(v * 10) / 10).toString();

/**
 * JSON for a <script type="application/json"> element: `<` written as \u003c so no text inside can
 * close the element or open a comment, and U+2028/U+2029 escaped for older parsers.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
