/**
 * Credentials out of every error and event. A provider's error body may echo the key it was sent
 * ("Incorrect API key provided: sk-…"), a fetch error quotes the URL it refused, an address may
 * hold `user:pass@`: what condense throws, emits or prints goes through these first.
 */

export const MASK = '***';

/** Environment variables whose values are treated as secrets wherever they appear. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;
/** Shorter values are too likely to be ordinary words or numbers to be masked everywhere. */
const MIN_SECRET_LENGTH = 8;

const PATTERNS: Array<[RegExp, string]> = [
  // userinfo of any URL: scheme://user:pass@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${MASK}@`],
  // Authorization header values
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/gi, `$1 ${MASK}`],
  // key shapes of the common providers (OpenAI, Anthropic, Groq, Hugging Face, xAI, GitHub, GitLab, AWS, Google)
  [/\b(?:sk-|sk_|rk_|gsk_|hf_|xai-|ghp_|gho_|github_pat_|glpat-|AKIA|AIza)[A-Za-z0-9_-]{8,}/g, MASK],
  // keys passed in a query string
  [/([?&](?:api[_-]?key|key|token|access_token|secret|password)=)[^&#\s"']+/gi, `$1${MASK}`],
];

/** `text` with every known secret value and every credential-shaped string masked. */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  const known = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH);
  // Longest first, so a key that contains another is masked whole.
  for (const secret of known.sort((a, b) => b.length - a.length)) out = out.split(secret).join(MASK);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Values of the environment variables whose names say they hold a credential. */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && SECRET_NAME.test(name) ? [value] : [],
  );
}

/** How deep into an error's fields (a response body, its headers, its causes) masking reaches. */
const MAX_DEPTH = 6;

/**
 * Masks credentials in an error in place — its message, stack, every string field (a provider
 * error's response body, URL, headers) and its causes — and returns it: whoever holds the error
 * (the caller, an event listener, a log) sees it masked. Secrets are the credential shapes and the
 * values of the environment's secret-named variables.
 */
export function maskSecrets<T>(value: T, secrets: Iterable<string> = secretValues(process.env)): T {
  const known = [...secrets];
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redact(v, known);
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH || seen.has(v)) return v;
    if (ArrayBuffer.isView(v)) return v; // bytes (a file, an image): no fields to read
    seen.add(v);
    const keys = v instanceof Error ? [...Object.getOwnPropertyNames(v), 'cause'] : Object.keys(v);
    for (const key of new Set(keys)) {
      const field = (v as Record<string, unknown>)[key];
      const masked = walk(field, depth + 1);
      if (masked === field) continue;
      try {
        (v as Record<string, unknown>)[key] = masked;
      } catch {
        // A read-only field stays as it is.
      }
    }
    return v;
  };
  return walk(value, 0) as T;
}
