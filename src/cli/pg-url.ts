import { redact, rememberSecret } from './redact.js';

/**
 * A connection string as the CLI may print it: the password masked, user, host and database kept
 * so the user sees which server was meant. The password is also remembered as a secret, so an
 * error that quotes it (whatever its shape) is masked too.
 */
export function printableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    rememberSecret(decodeURIComponent(parsed.password));
    rememberSecret(parsed.password);
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return redact(url);
  }
}
