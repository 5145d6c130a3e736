import type { LanguageModel } from 'ai';

/** Where a `PROVIDER:MODEL` spec points when no --base-url is given. */
export const KNOWN_BASE_URLS: Record<string, string> = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://localhost:11434/v1',
  lmstudio: 'http://localhost:1234/v1',
  vllm: 'http://localhost:8000/v1',
};

export interface SummarizerModel {
  model: LanguageModel;
  /** `provider:model at URL`, for error messages. */
  label: string;
}

/**
 * `PROVIDER:MODEL` → an AI SDK model on any OpenAI-compatible server (Ollama, vLLM, LM Studio,
 * OpenAI). The key comes from `<PROVIDER>_API_KEY`, `CONDENSE_API_KEY` or `OPENAI_API_KEY`.
 * `extractive` (or nothing) means the offline summarizer: undefined. The provider package is
 * loaded only here, so commands that never call a model do not pay for it at startup.
 */
export async function summarizerModel(
  spec: string | undefined,
  baseUrl: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SummarizerModel | undefined> {
  if (spec === undefined || spec === 'extractive') {
    if (baseUrl !== undefined) throw new Error('--base-url needs --summarizer PROVIDER:MODEL');
    return undefined;
  }
  const at = spec.indexOf(':');
  if (at <= 0 || at === spec.length - 1)
    throw new Error(
      `--summarizer takes 'extractive' or PROVIDER:MODEL (e.g. openai:gpt-4o-mini, ollama:llama3.1), got '${spec}'`,
    );
  const provider = spec.slice(0, at);
  const modelId = spec.slice(at + 1);
  const baseURL = baseUrl ?? KNOWN_BASE_URLS[provider];
  if (!baseURL)
    throw new Error(
      `no known address for provider '${provider}' (known: ${Object.keys(KNOWN_BASE_URLS).join(', ')}): pass --base-url`,
    );
  try {
    new URL(baseURL);
  } catch {
    throw new Error(`--base-url is not a URL: '${baseURL}'`);
  }
  const apiKey = env[`${provider.toUpperCase()}_API_KEY`] ?? env.CONDENSE_API_KEY ?? env.OPENAI_API_KEY;
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const model = createOpenAICompatible({ name: provider, baseURL, apiKey })(modelId);
  return { model, label: `${provider}:${modelId} at ${baseURL}` };
}
