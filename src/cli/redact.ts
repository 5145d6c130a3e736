/**
 * Credentials out of everything the CLI prints. A provider's error body may echo the key it was
 * sent, a fetch error quotes the URL it refused, a user may put `user:pass@` in an address: every
 * message goes through `redact` before it reaches a terminal or a CI log.
 */

const MASK = '***';

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

const remembered = new Set<string>();

/**
 * Records a credential this process read (a key from a variable the user named, whatever that
 * name), so `redactForPrint` masks it even when its variable's name does not look secret.
 */
export function rememberSecret(value: string): void {
  remembered.add(value);
}

/** What the CLI prints: `text` without the remembered keys, the environment's secrets or any credential shape. */
export function redactForPrint(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return redact(text, [...remembered, ...secretValues(env)]);
}
