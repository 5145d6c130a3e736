/**
 * The few model limits condense holds apart from the models.dev catalog (model-catalog.ts). Row:
 * [ids, contextWindow, maxOutput?, inputLimit?]. Looked up before the catalog, so a row here also
 * corrects it. Keep it short: a model the catalog has belongs there (scripts/update-model-catalog.mjs).
 */
export type ModelRow = readonly [
  ids: readonly string[],
  contextWindow: number,
  maxOutput?: number,
  inputLimit?: number,
];

// biome-ignore format: one row per model family reads as a table
export const MODEL_OVERRIDES: readonly ModelRow[] = [
  // Pegasus's own table, as written (the pegasus preset reproduces it): its windows differ from the
  // providers' for gpt-4.1 (1,047,576), and it names Claude 3 Haiku 'claude-haiku-3-20250307'.
  [['gpt-4o'], 128_000, 16_384],
  [['gpt-4o-mini'], 128_000, 16_384],
  [['gpt-4.1', 'gpt-4.1-mini'], 1_000_000, 32_768],
  [['claude-sonnet-4-20250514'], 200_000, 64_000],
  [['claude-opus-4-20250514'], 200_000, 32_000],
  [['claude-haiku-3-20250307'], 200_000, 4_096],

  // Corrections to the catalog snapshot (provider model pages).
  [['gpt-5-chat-latest'], 128_000, 16_384],
];
