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
  // Corrections to the catalog snapshot (provider model pages).
  [['gpt-5-chat-latest'], 128_000, 16_384],
];
