/**
 * Credentials out of everything the CLI prints. A provider's error body may echo the key it was
 * sent, a fetch error quotes the URL it refused, a user may put `user:pass@` in an address: every
 * message goes through `redact` before it reaches a terminal or a CI log.
 */

import { redact, secretValues } from '../model/secrets.js';

export { redact, secretValues };

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
