/**
 * Which key, if any, a summarizer request carries. A key goes only where it belongs: a provider's
 * own variable to that provider (OpenAI's only to api.openai.com), and any other key only when the
 * user named it for this command (`CONDENSE_API_KEY`, `--api-key-env`). Only the providers below
 * map to a variable, so a made-up provider name never reads an unrelated secret from the
 * environment.
 */

export interface KnownProvider {
  /** Where the provider's OpenAI-compatible API is when no --base-url is given. */
  baseURL: string;
  /** The variable holding this provider's key. */
  keyEnv: string;
  /** When set, the key is sent to this origin only (a hosted service's key, not a local server's). */
  keyOrigin?: string;
}

export const PROVIDERS: Readonly<Record<string, KnownProvider>> = {
  openai: {
    baseURL: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    keyOrigin: 'https://api.openai.com',
  },
  ollama: { baseURL: 'http://localhost:11434/v1', keyEnv: 'OLLAMA_API_KEY' },
  lmstudio: { baseURL: 'http://localhost:1234/v1', keyEnv: 'LMSTUDIO_API_KEY' },
  vllm: { baseURL: 'http://localhost:8000/v1', keyEnv: 'VLLM_API_KEY' },
};

export function knownProvider(name: string): KnownProvider | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
}

/** The variable the user names for any server's key. */
export const CONDENSE_KEY_ENV = 'CONDENSE_API_KEY';

export type ApiKeyChoice =
  | { key: string; from: string }
  /** No key; `withheld` says which key was there but is not sent to this address, and how to send it. */
  | { key?: undefined; withheld?: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The key for a request to `url`: the variable named by `--api-key-env` (it must be set); else the
 * provider's own variable when `url` is where that key belongs; else `CONDENSE_API_KEY`; else none.
 */
export function chooseApiKey(
  provider: string,
  url: URL,
  env: NodeJS.ProcessEnv,
  apiKeyEnv?: string,
): ApiKeyChoice {
  if (apiKeyEnv !== undefined) {
    if (!ENV_NAME.test(apiKeyEnv))
      throw new Error(`--api-key-env takes the name of an environment variable, got '${apiKeyEnv}'`);
    const key = env[apiKeyEnv];
    if (key === undefined || key === '')
      throw new Error(`--api-key-env ${apiKeyEnv}: that environment variable is not set`);
    return { key, from: apiKeyEnv };
  }
  const known = knownProvider(provider);
  const own = known === undefined ? undefined : env[known.keyEnv];
  let withheld: string | undefined;
  if (known !== undefined && own !== undefined && own !== '') {
    if (known.keyOrigin === undefined || known.keyOrigin === url.origin)
      return { key: own, from: known.keyEnv };
    withheld = `${known.keyEnv} is sent only to ${known.keyOrigin}, not to ${url.origin}; to send it there, pass --api-key-env ${known.keyEnv}`;
  }
  const general = env[CONDENSE_KEY_ENV];
  if (general !== undefined && general !== '') return { key: general, from: CONDENSE_KEY_ENV };
  return withheld === undefined ? {} : { withheld };
}
