import type { LanguageModel } from 'ai';
import { importPeer } from '../model/peer.js';
import { chooseApiKey, knownProvider, PROVIDERS } from './api-key.js';
import { redact, rememberSecret } from './redact.js';

export interface SummarizerModel {
  model: LanguageModel;
  /** `provider:model at URL` (credentials masked), for error messages. */
  label: string;
  /** A key that was there but not sent to this address, and how to send it: said when a call fails. */
  withheld?: string;
}

export interface SummarizerSpec {
  /** `extractive`, or `PROVIDER:MODEL`. */
  summarizer?: string;
  baseUrl?: string;
  /** The environment variable holding the key for this server, named by the user. */
  apiKeyEnv?: string;
}

const PROVIDER_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/**
 * `PROVIDER:MODEL` → an AI SDK model on any OpenAI-compatible server (Ollama, vLLM, LM Studio,
 * OpenAI). Which key is sent is chooseApiKey's rule. `extractive` (or nothing) means the offline
 * summarizer: undefined. The provider package is loaded only here, so commands that never call a
 * model do not pay for it at startup.
 */
export async function summarizerModel(
  spec: SummarizerSpec,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SummarizerModel | undefined> {
  const { summarizer, baseUrl, apiKeyEnv } = spec;
  if (summarizer === undefined || summarizer === 'extractive') {
    if (baseUrl !== undefined) throw new Error('--base-url needs --summarizer PROVIDER:MODEL');
    if (apiKeyEnv !== undefined) throw new Error('--api-key-env needs --summarizer PROVIDER:MODEL');
    return undefined;
  }
  const at = summarizer.indexOf(':');
  const provider = summarizer.slice(0, at);
  if (at <= 0 || at === summarizer.length - 1 || !PROVIDER_NAME.test(provider))
    throw new Error(
      `--summarizer takes 'extractive' or PROVIDER:MODEL (e.g. openai:gpt-4o-mini, ollama:llama3.1), got '${summarizer}'`,
    );
  const modelId = summarizer.slice(at + 1);
  const baseURL = baseUrl ?? knownProvider(provider)?.baseURL;
  if (baseURL === undefined)
    throw new Error(
      `no known address for provider '${provider}' (known: ${Object.keys(PROVIDERS).join(', ')}): pass --base-url`,
    );
  const url = serverUrl(baseURL);
  const choice = chooseApiKey(provider, url, env, apiKeyEnv);
  if (choice.key !== undefined) rememberSecret(choice.key);
  const { createOpenAICompatible } = await importPeer<typeof import('@ai-sdk/openai-compatible')>(
    '@ai-sdk/openai-compatible',
    `--summarizer ${provider}:${modelId}`,
  );
  const model = createOpenAICompatible({ name: provider, baseURL, apiKey: choice.key })(modelId);
  const label = `${provider}:${modelId} at ${redact(baseURL)}`;
  return {
    model,
    label,
    ...(choice.key === undefined && choice.withheld ? { withheld: choice.withheld } : {}),
  };
}

/** The server address: an http(s) URL without credentials in it (fetch refuses those, and they get printed). */
function serverUrl(baseURL: string): URL {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new Error(`--base-url is not a URL: '${redact(baseURL)}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`--base-url must be an http or https URL, got '${redact(baseURL)}'`);
  if (url.username !== '' || url.password !== '')
    throw new Error(
      `--base-url must not hold credentials (${redact(baseURL)}): put the key in CONDENSE_API_KEY or name its variable with --api-key-env`,
    );
  return url;
}
