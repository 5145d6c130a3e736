import { InputError } from './errors.js';

/**
 * Text that cannot be stored or sent as it is, and the one rule for it on every store and path:
 * - a session id must be exact, so one that is empty or holds a control character (NUL included:
 *   Postgres cannot store it, a listing would print it as nothing) or a lone surrogate is refused;
 * - message text is the user's and the model's: a lone surrogate (half of a UTF-16 pair, which no
 *   UTF-8 can hold: Postgres refuses it, a provider gets garbage) is replaced by U+FFFD, and the
 *   caller reports how many.
 */

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** The same, for a test or a first match (a global regex keeps state between calls). */
const ONE_LONE = new RegExp(LONE.source);

const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why an id cannot name a session, or undefined when it can. */
export function sessionIdProblem(id: string): string | undefined {
  if (id.trim() === '') return 'is empty';
  const control = /\p{Cc}/u.exec(id)?.[0];
  if (control !== undefined) return `holds the control character ${codePoint(control)}`;
  const lone = ONE_LONE.exec(id)?.[0];
  if (lone !== undefined) return `holds a lone surrogate (${codePoint(lone)}), which no UTF-8 text can hold`;
  return undefined;
}

/** Refuses an id that cannot name a session (see sessionIdProblem), naming the field. */
export function checkSessionId(id: string, field = 'sessionId'): void {
  const problem = sessionIdProblem(id);
  if (problem !== undefined) throw new InputError(`session id ${JSON.stringify(id)} ${problem}`, { field });
}

/** How many lone surrogates the strings of a JSON-like value hold. */
export function loneSurrogates(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.match(LONE)?.length ?? 0;
  if (value === null || typeof value !== 'object' || depth > 600) return 0;
  let n = 0;
  for (const v of Array.isArray(value) ? value : Object.values(value)) n += loneSurrogates(v, depth + 1);
  return n;
}

/** The value with every lone surrogate replaced by U+FFFD; copied only where something changed. */
export function wellFormed<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return (ONE_LONE.test(value) ? value.replace(LONE, '\uFFFD') : value) as T;
  if (value === null || typeof value !== 'object' || depth > 600) return value;
  const source = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(source)) {
    const w = wellFormed(source[k], depth + 1);
    if (w === source[k]) continue;
    out ??= (Array.isArray(source) ? [...source] : { ...source }) as Record<string, unknown>;
    out[k] = w;
  }
  return (out ?? value) as T;
}
