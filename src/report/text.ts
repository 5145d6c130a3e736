import { gzipSync } from 'node:zlib';

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
 * JSON for the page, gzipped and in base64: the page's script inflates it with the browser's own
 * DecompressionStream. Summaries, quotes and turn lists repeat a lot, so a 100,000-entry report
 * shrinks several times; base64 holds no character that could end the script element.
 */
export function packedJson(value: unknown): string {
  return gzipSync(JSON.stringify(value)).toString('base64');
}
