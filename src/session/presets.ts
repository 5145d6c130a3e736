import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { BUDGET_PRESETS, type BudgetPresetName } from '../budget/index.js';
import { llmSummarizer } from '../compact/index.js';
import { PRUNE_SEED_000, PRUNE_SEED_001 } from '../prune/index.js';
import type { SessionOptions } from './options.js';

import { PRESET_NAMES, type PresetName } from './preset-names.js';

export { PRESET_NAMES, type PresetName };

/**
 * Configurations that reproduce each seed system (DESIGN "Seed conformance", SEED-READINGS).
 * Seed 003's archive layout (current.jsonl → timestamped archives) belongs to the JSONL store.
 */
const PRESETS: Record<PresetName, SessionOptions> = {
  default: {},
  // Prune at every session start, after-step check, summary-only pivot as an assistant message
  // flagged metadata.summary; everything before it is skipped (C-02, A000-09).
  'seed-000': {
    checks: { afterStep: true, beforeTurn: false, countOutput: true, countCacheWrite: false },
    prune: { ...PRUNE_SEED_000, when: 'open' },
    compaction: { plan: { keepNone: true }, summaryAs: 'assistant' },
  },
  // Post-step trigger → queued marker → "What did we do so far?" + assistant summary, the
  // optional continue message on (§4.3, A001-10), pruning by marks with the placeholder.
  'seed-001': {
    checks: { afterStep: true, beforeTurn: false, countOutput: true, countCacheWrite: false },
    prune: { ...PRUNE_SEED_001, when: 'turn' },
    compaction: { plan: { keepNone: true }, summaryAs: 'question+assistant', continueMessage: true },
  },
  // Compaction turn keeping ~30,000 tokens of whole turns verbatim (A002-03: newest turn alone too
  // big ⇒ nothing kept), summary as a system message, reserve threshold checked before each run.
  'seed-002': {
    checks: { afterStep: false, beforeTurn: true },
    prune: false,
    compaction: {
      plan: { keepTurns: Number.MAX_SAFE_INTEGER, keepTokens: 30_000, minKeepLatestTurn: false },
      summaryAs: 'system',
    },
  },
  // Hybrid estimate before each call against 0.8 × window; the new session starts with one
  // system entry "Summary: …" (A003-12).
  'seed-003': {
    checks: { afterStep: false, beforeTurn: true },
    prune: false,
    compaction: {
      plan: { keepNone: true },
      summaryAs: 'system',
      formatSummary: (text) => `Summary: ${text}`,
    },
  },
  // ContextTokens = prompt + completion of the last call (A004-12: nothing added since), ≥ 200,000,
  // history replaced by [system, user(summary + "Last request from user was: …")].
  'seed-004': {
    checks: { afterStep: true, beforeTurn: false, countOutput: true },
    prune: false,
    compaction: { plan: { keepNone: true }, summaryAs: 'user-plain' },
  },
};

const BUDGET_OF: Record<PresetName, BudgetPresetName> = {
  default: 'default',
  'seed-000': '000',
  'seed-001': '001',
  'seed-002': '002',
  'seed-003': '003',
  'seed-004': '004',
};

const PROMPT_OF: Partial<Record<PresetName, 'seed-001' | 'seed-004'>> = {
  'seed-000': 'seed-001',
  'seed-001': 'seed-001',
  'seed-004': 'seed-004',
};

/**
 * The options of a preset. With `summarizerModel`, summaries come from that model with the seed's
 * own prompt; without, from the offline extractive summarizer.
 */
export function presetOptions(
  name: PresetName,
  extra: { summarizerModel?: LanguageModel } = {},
): SessionOptions {
  const preset = PRESETS[name];
  if (!preset) throw new Error(`unknown preset '${name}' (one of ${PRESET_NAMES.join(', ')})`);
  const summarizer = extra.summarizerModel
    ? llmSummarizer({ model: extra.summarizerModel, prompt: PROMPT_OF[name] ?? 'seed-004' })
    : undefined;
  // Seed 004 §7 / A004-09: after compaction, recount with a real request of at most 16 tokens.
  const countTokens =
    name === 'seed-004' && extra.summarizerModel ? probeCounter(extra.summarizerModel) : undefined;
  return {
    ...preset,
    budget: { ...BUDGET_PRESETS[BUDGET_OF[name]] },
    compaction: {
      ...preset.compaction,
      ...(summarizer ? { summarizer } : {}),
      ...(countTokens ? { countTokens } : {}),
    },
  };
}

/** Counts a context's prompt tokens by sending it with a 16-token output cap and reading the usage. */
export function probeCounter(model: LanguageModel) {
  return async (context: { messages: ModelMessage[]; system?: string }): Promise<number | undefined> => {
    const result = await generateText({ model, ...context, maxOutputTokens: 16 });
    return result.usage.inputTokens;
  };
}
