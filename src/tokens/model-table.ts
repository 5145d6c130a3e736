/**
 * Built-in model limits, by the ids the provider APIs accept (dated ids and their aliases).
 * Row: [ids, contextWindow, maxOutput?, inputLimit?]. `inputLimit` only where the provider
 * publishes a prompt limit below the window (GPT-5: 272k of 400k); Gemini's published "input
 * limit" is its whole window, so it is recorded as the window. Sources: provider model pages
 * (OpenAI, Anthropic, Google AI), model cards for open models. Seed 003's own table is kept as
 * written, including its values that differ from the providers' (gpt-4.1: 1,000,000).
 */
export type ModelRow = readonly [
  ids: readonly string[],
  contextWindow: number,
  maxOutput?: number,
  inputLimit?: number,
];

// biome-ignore format: one row per model family reads as a table
export const MODEL_TABLE: readonly ModelRow[] = [
  // Seed 003's table (its windows, verbatim ids).
  [['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20', 'chatgpt-4o-latest'], 128_000, 16_384],
  [['gpt-4o-mini', 'gpt-4o-mini-2024-07-18'], 128_000, 16_384],
  [['gpt-4.1', 'gpt-4.1-mini'], 1_000_000, 32_768],
  [['claude-sonnet-4-20250514', 'claude-sonnet-4-0'], 200_000, 64_000],
  [['claude-opus-4-20250514', 'claude-opus-4-0'], 200_000, 32_000],
  [['claude-haiku-3-20250307'], 200_000, 4_096],

  // OpenAI
  [['gpt-4o-2024-05-13'], 128_000, 4_096],
  [['gpt-4.1-2025-04-14', 'gpt-4.1-mini-2025-04-14', 'gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'], 1_047_576, 32_768],
  [['gpt-4-turbo', 'gpt-4-turbo-2024-04-09'], 128_000, 4_096],
  [['gpt-4', 'gpt-4-0613'], 8_192, 8_192],
  [['gpt-3.5-turbo', 'gpt-3.5-turbo-0125'], 16_385, 4_096],
  [['o1', 'o1-2024-12-17', 'o1-pro', 'o1-pro-2025-03-19'], 200_000, 100_000],
  [['o1-mini', 'o1-mini-2024-09-12'], 128_000, 65_536],
  [['o1-preview', 'o1-preview-2024-09-12'], 128_000, 32_768],
  [['o3', 'o3-2025-04-16', 'o3-pro', 'o3-pro-2025-06-10', 'o3-mini', 'o3-mini-2025-01-31'], 200_000, 100_000],
  [['o4-mini', 'o4-mini-2025-04-16'], 200_000, 100_000],
  [
    [
      'gpt-5', 'gpt-5-2025-08-07', 'gpt-5-mini', 'gpt-5-mini-2025-08-07', 'gpt-5-nano', 'gpt-5-nano-2025-08-07',
      'gpt-5-codex', 'gpt-5.1', 'gpt-5.1-2025-11-13', 'gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5.1-codex-max',
      'gpt-5.2', 'gpt-5.2-2025-12-11', 'gpt-5.2-codex',
    ],
    400_000, 128_000, 272_000,
  ],
  [['gpt-5-pro', 'gpt-5-pro-2025-10-06'], 400_000, 272_000, 128_000],
  [['gpt-5-chat-latest', 'gpt-5.1-chat-latest'], 128_000, 16_384],
  [['gpt-oss-120b', 'gpt-oss-20b', 'openai/gpt-oss-120b', 'openai/gpt-oss-20b'], 131_072, 32_768],

  // Anthropic
  [['claude-3-haiku-20240307'], 200_000, 4_096],
  [['claude-3-opus-20240229', 'claude-3-opus-latest', 'claude-3-sonnet-20240229'], 200_000, 4_096],
  [['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-latest'], 200_000, 8_192],
  [['claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest'], 200_000, 8_192],
  [['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet-latest'], 200_000, 64_000],
  [['claude-opus-4-1-20250805', 'claude-opus-4-1'], 200_000, 32_000],
  [['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'], 200_000, 64_000],
  [['claude-haiku-4-5-20251001', 'claude-haiku-4-5'], 200_000, 64_000],
  [['claude-opus-4-5-20251101', 'claude-opus-4-5'], 200_000, 64_000],

  // Google
  [['gemini-1.5-pro', 'gemini-1.5-pro-002', 'gemini-1.5-pro-latest'], 2_097_152, 8_192],
  [['gemini-1.5-flash', 'gemini-1.5-flash-002', 'gemini-1.5-flash-latest', 'gemini-1.5-flash-8b'], 1_048_576, 8_192],
  [['gemini-2.0-flash', 'gemini-2.0-flash-001', 'gemini-2.0-flash-lite', 'gemini-2.0-flash-lite-001'], 1_048_576, 8_192],
  [['gemini-2.0-pro-exp-02-05'], 2_097_152, 8_192],
  [['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'], 1_048_576, 65_536],
  [['gemini-3-pro-preview'], 1_048_576, 65_536],

  // Open models (ids as Hugging Face / vLLM, Ollama and common hosts spell them)
  [
    [
      'llama-3.1-8b-instruct', 'llama-3.1-70b-instruct', 'llama-3.1-405b-instruct', 'llama-3.3-70b-instruct',
      'meta-llama/Llama-3.1-8B-Instruct', 'meta-llama/Llama-3.1-70B-Instruct', 'meta-llama/Llama-3.1-405B-Instruct',
      'meta-llama/Llama-3.3-70B-Instruct', 'llama3.1', 'llama3.1:8b', 'llama3.1:70b', 'llama3.3', 'llama3.3:70b',
    ],
    131_072,
  ],
  [['llama-3.3-70b-versatile', 'llama-3.1-8b-instant'], 131_072, 32_768],
  [
    [
      'qwen2.5-72b-instruct', 'qwen2.5-32b-instruct', 'qwen2.5-7b-instruct', 'qwen2.5-coder-32b-instruct',
      'Qwen/Qwen2.5-72B-Instruct', 'Qwen/Qwen2.5-Coder-32B-Instruct', 'qwen2.5', 'qwen2.5-coder',
    ],
    131_072, 8_192,
  ],
  [['qwen3-235b-a22b', 'qwen3-32b', 'qwen3-30b-a3b', 'qwen3-14b', 'qwen3-8b', 'Qwen/Qwen3-235B-A22B', 'qwen3'], 131_072, 32_768],
  [['qwen3-coder-480b-a35b-instruct', 'Qwen/Qwen3-Coder-480B-A35B-Instruct', 'qwen3-coder'], 262_144, 65_536],
  [['deepseek-chat'], 128_000, 8_192],
  [['deepseek-reasoner'], 128_000, 65_536],
  [['deepseek-v3', 'deepseek-r1', 'deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1'], 131_072],
  [['mistral-large-latest', 'mistral-large-2411', 'mistral-large-2407'], 131_072],
  [['mistral-medium-latest', 'mistral-small-latest', 'mistral-small-2503'], 131_072],
  [['codestral-latest', 'codestral-2501'], 262_144],
  [['mistral-nemo', 'open-mistral-nemo'], 131_072],
];
