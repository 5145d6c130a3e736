import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { BUDGET_PRESETS, type BudgetPresetName } from '../budget/index.js';
import {
  LAST_REQUEST_PREFIX,
  llmSummarizer,
  newestUserText,
  SEED_000_FINAL_INSTRUCTION,
  SEED_000_SYSTEM_PROMPT,
  SEED_001_FINAL_INSTRUCTION,
  SEED_001_MARKER_TEXT,
  SEED_001_SYSTEM_PROMPT,
  SEED_003_SYSTEM_PROMPT,
  SEED_004_PROMPT,
} from '../compact/index.js';
import { PRUNE_SEED_000, PRUNE_SEED_001 } from '../prune/index.js';
import {
  charsPerTokenEstimator,
  heuristicEstimator,
  roundedHeuristicEstimator,
  SEED_000_MAX_TOKENS_PER_PART,
} from '../tokens/estimator.js';
import type { ModelLimits } from '../tokens/models.js';
import type { SessionOptions, SummaryContext } from './options.js';
import {
  PRESET_INPUTS,
  PRESET_NAMES,
  type PresetInput,
  type PresetName,
  resolvePresetName,
} from './preset-names.js';
import { toolSetOf } from './seed-call.js';

export { PRESET_NAMES, type PresetName };

/** The summary as the summarizer returned it: Qwery and opencode add nothing. */
const asReturned = (text: string) => text;

/** Mistral Vibe step 4: the summary, then the newest user message's text when it has any. */
function withLastRequest(text: string, { view }: SummaryContext): string {
  const last = newestUserText(view);
  return last === '' ? text : `${text}\n\n${LAST_REQUEST_PREFIX}${last}`;
}

/** Pegasus's model table, as its design writes it ("Unknown models fall back to 128_000"). */
const SEED_003_MODELS: Readonly<Record<string, ModelLimits>> = {
  'gpt-4o': { contextWindow: 128_000 },
  'gpt-4o-mini': { contextWindow: 128_000 },
  'gpt-4.1': { contextWindow: 1_000_000 },
  'gpt-4.1-mini': { contextWindow: 1_000_000 },
  'claude-sonnet-4-20250514': { contextWindow: 200_000 },
  'claude-opus-4-20250514': { contextWindow: 200_000 },
  'claude-haiku-3-20250307': { contextWindow: 200_000 },
};

/**
 * Configurations that reproduce each system a preset is named after.
 * Each summarizes with the seed's own call (system prompt, the history as messages, instruction)
 * and stores the summary as the seed does, without condense's appendix. Pegasus's archive layout
 * (current.jsonl → timestamped archives) belongs to the JSONL store.
 */
const PRESETS: Record<PresetName, SessionOptions> = {
  default: {},
  // At every session start: check the stored usage, compaction task → summary → prune (erasing
  // stored outputs). The summary is an assistant message flagged metadata.summary; everything
  // before it is skipped. Reasoning is not counted ("Future Considerations").
  'seed-000': {
    estimator: heuristicEstimator({ maxTokensPerPart: SEED_000_MAX_TOKENS_PER_PART }),
    checks: {
      afterStep: false,
      beforeTurn: false,
      atOpen: true,
      countOutput: true,
      countCacheWrite: false,
      countReasoning: false,
    },
    prune: { ...PRUNE_SEED_000, when: 'open' },
    compaction: {
      plan: { keepNone: true },
      summaryAs: 'assistant',
      summaryCall: { system: SEED_000_SYSTEM_PROMPT, prompt: SEED_000_FINAL_INSTRUCTION },
      recordTask: true,
      appendix: false,
      gate: false,
      formatSummary: asReturned,
    },
  },
  // Post-step trigger (input + cache read + output text) → queued task, shown as "What did we do so
  // far?" → the call with its system prompt and final instruction on the history → assistant summary, then the continue message
  // ; pruning by marks with the placeholder; chars/4 with no per-part cap.
  'seed-001': {
    estimator: roundedHeuristicEstimator(),
    checks: {
      afterStep: true,
      beforeTurn: false,
      countOutput: true,
      countCacheWrite: false,
      countReasoning: false,
    },
    prune: { ...PRUNE_SEED_001, when: 'turn' },
    compaction: {
      plan: { keepNone: true },
      summaryAs: 'question+assistant',
      continueMessage: true,
      summaryCall: { system: SEED_001_SYSTEM_PROMPT, prompt: SEED_001_FINAL_INSTRUCTION },
      markerQuestion: SEED_001_MARKER_TEXT,
      recordTask: true,
      // opencode's design gives no retry rule: surface the error, retry automatically at most once.
      maxFailures: 2,
      appendix: false,
      gate: false,
      formatSummary: asReturned,
    },
  },
  // Compaction turn keeping ~30,000 tokens of whole turns verbatim (newest turn alone too
  // big ⇒ nothing kept), summary as a system message, reserve threshold checked before each run.
  'seed-002': {
    checks: { afterStep: false, beforeTurn: true },
    prune: false,
    compaction: {
      plan: {
        keepTurns: Number.MAX_SAFE_INTEGER,
        keepTokens: 30_000,
        minKeepLatestTurn: false,
        forceProgress: false, // an empty toSummarize is no compaction
      },
      summaryAs: 'system',
      gate: false,
      // "tokensAfter: calculateTokens(summary) + calculateTokens(toKeep)": the summary's own text,
      // no message framing, so the worked example's figures come out exact.
      countSummary: (summary, estimator) => estimator.text(summary),
    },
    fork: { mode: 'summary' }, // "Default: Use summary + turns from fork point forward"
  },
  // lastPromptTokens + len/3.5 of what came since (or of the whole session) > 0.8 × window, before
  // each call; "Summarize this conversation…" over the session's messages; the new session starts
  // with one system entry "Summary: …".
  'seed-003': {
    models: SEED_003_MODELS,
    estimator: charsPerTokenEstimator(3.5),
    checks: { afterStep: false, beforeTurn: true, estimate: 'local' },
    prune: false,
    compaction: {
      plan: { keepNone: true },
      summaryAs: 'system',
      summaryCall: { system: SEED_003_SYSTEM_PROMPT },
      appendix: false,
      gate: false,
      formatSummary: (text) => `Summary: ${text}`,
    },
  },
  // ContextTokens = prompt + completion of the last call (nothing added since), ≥ 200,000;
  // the cleaned history + the seven-section prompt under the agent's own system prompt and tools;
  // history replaced by [system, user(summary + "Last request from user was: …")].
  'seed-004': {
    checks: { afterStep: true, beforeTurn: false, countOutput: true, countReasoning: true },
    prune: false,
    compaction: {
      // Its Compact() runs on `[system]` alone too: `[system, user(summary)]`.
      plan: { keepNone: true, summarizeEmpty: true },
      summaryAs: 'user-plain',
      summaryCall: { system: 'agent', prompt: SEED_004_PROMPT, clean: true },
      appendix: false,
      gate: false,
      formatSummary: withLastRequest,
    },
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

/**
 * The options of a preset. Summaries come from `summarizerModel` when given, else from the
 * session's `model` when it is an AI SDK model (opencode, Pegasus), else from the offline
 * extractive summarizer.
 */
export function presetOptions(
  input: PresetInput,
  extra: { summarizerModel?: LanguageModel } = {},
): SessionOptions {
  const name = resolvePresetName(input);
  if (!name) throw new Error(`unknown preset '${input}' (one of ${PRESET_INPUTS.join(', ')})`);
  const preset = PRESETS[name];
  const summarizer = extra.summarizerModel
    ? llmSummarizer({ model: extra.summarizerModel, prompt: 'seed-004' })
    : undefined;
  // Mistral Vibe, after compaction, recounts with a real request of at most 16 tokens.
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
  return async (context: {
    messages: ModelMessage[];
    system?: string;
    tools?: unknown;
  }): Promise<number | undefined> => {
    // The tools as the agent offers them (Mistral Vibe counts `a.tools`), none of them callable.
    const tools = toolSetOf(context.tools);
    const result = await generateText({
      model,
      messages: context.messages,
      ...(context.system !== undefined ? { system: context.system } : {}),
      ...(tools ? { tools, toolChoice: 'none' as const } : {}),
      maxOutputTokens: 16,
    });
    return result.usage.inputTokens;
  };
}
