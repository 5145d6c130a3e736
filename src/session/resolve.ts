import type { LanguageModel } from 'ai';
import { checkSoft, DEFAULT_SOFT, type ResolvedBudget, resolveBudget } from '../budget/index.js';
import { extractiveSummarizer, llmSummarizer, type Summarizer } from '../compact/index.js';
import { type ResolvedPruneOptions, resolvePruneOptions } from '../prune/index.js';
import type { Estimator } from '../tokens/estimator.js';
import { estimatorByName } from '../tokens/exact.js';
import { lookupInTable, lookupModel, type ResolvedModel } from '../tokens/models.js';
import { ollamaNumCtx } from '../tokens/ollama.js';
import type { CompactionQueue } from './background/queue.js';
import type { CheckSettings, CompactionSettings, SessionHooks, SessionOptions } from './options.js';

export interface ResolvedSession {
  model: string;
  /** The model as the catalog knows it (limits, prices, where they came from). */
  modelInfo: ResolvedModel;
  /** True when the window is the fallback: no catalog entry, option or `num_ctx` gave one. */
  windowFallback: boolean;
  /** Where the window came from: the options, an Ollama model's num_ctx, or the model lookup. */
  windowSource: 'options' | 'num_ctx' | ResolvedModel['source'];
  budget: ResolvedBudget;
  estimator: Estimator;
  summarizer: Summarizer;
  prune: (ResolvedPruneOptions & { when: 'turn' | 'open' }) | null;
  compaction: CompactionSettings;
  checks: Required<CheckSettings>;
  hooks: SessionHooks;
  /** A text part too large for any request: an error at prepare() naming it, or truncated at append. */
  oversize: 'error' | 'truncate';
  /** Background compaction, when on: its soft threshold and the queue given (else the session makes one). */
  background: { soft: number; queue?: CompactionQueue } | null;
  /** The agent's system prompt, when given in the options. */
  system?: string;
  /** The agent's tool definitions, when given in the options. */
  tools?: unknown;
  /** Raw-estimate tokens of the system prompt and tool definitions. */
  overheadRaw: number;
  now: () => number;
}

/** The id limits are looked up by: the string itself, or an AI SDK model's `modelId`. */
export function modelIdOf(model: SessionOptions['model']): string {
  if (model === undefined) return 'unknown';
  return typeof model === 'string' ? model : model.modelId;
}

export function overheadOf(estimator: Estimator, system: string | undefined, tools: unknown): number {
  const toolsJson = tools === undefined ? '' : (JSON.stringify(tools) ?? '');
  return estimator.text(system ?? '') + estimator.text(toolsJson);
}

/** What the session's metadata remembers for options left out: its system prompt and its model. */
export interface StoredSettings {
  system?: string;
  model?: string;
}

/** Turns options into a complete configuration, failing early (ConfigError) on one that cannot work. */
export function resolveSession(options: SessionOptions, stored: StoredSettings = {}): ResolvedSession {
  const storedSystem = stored.system;
  const model = options.model === undefined ? (stored.model ?? 'unknown') : modelIdOf(options.model);
  const modelInfo = options.models ? lookupInTable(model, options.models) : lookupModel(model);
  const numCtx = ollamaNumCtx(options.model);
  const limits = { ...modelInfo, ...(numCtx ? { contextWindow: numCtx } : {}), ...options.limits };
  const windowSource: ResolvedSession['windowSource'] =
    options.limits?.contextWindow !== undefined ? 'options' : numCtx ? 'num_ctx' : modelInfo.source;
  const windowFallback = windowSource === 'fallback';
  const budget = resolveBudget({
    ...options.budget,
    contextWindow: limits.contextWindow,
    maxOutput: limits.maxOutput,
    inputLimit: limits.inputLimit,
  });
  const estimator =
    typeof options.estimator === 'object'
      ? options.estimator
      : estimatorByName(options.estimator ?? 'heuristic');
  const compaction = options.compaction ?? {};
  const offline = () => extractiveSummarizer({ summaryTokens: compaction.summaryTokens, estimator });
  // The session's own model summarizes unless a summarizer is named (a failed or refused summary
  // is replaced by the offline one at compaction: see compaction.fallback).
  const modelSummarizer = (model: LanguageModel) =>
    llmSummarizer({ model, contextWindow: limits.contextWindow || undefined, estimator });
  const summarizer =
    compaction.summarizer ?? (typeof options.model === 'object' ? modelSummarizer(options.model) : offline());
  const prune =
    options.prune === false
      ? null
      : {
          ...resolvePruneOptions(options.prune ?? {}, budget.usable),
          when: options.prune?.when ?? ('turn' as const),
        };
  return {
    model,
    modelInfo,
    windowFallback,
    windowSource,
    budget,
    estimator,
    summarizer,
    prune,
    compaction,
    oversize: options.oversize ?? 'error',
    checks: {
      afterStep: true,
      beforeTurn: true,
      countOutput: true,
      countCacheWrite: true,
      countReasoning: false,
      atOpen: false,
      estimate: 'calibrated',
      ...options.checks,
    },
    hooks: options.hooks ?? {},
    background: backgroundOf(options.background),
    system: options.system ?? storedSystem,
    tools: options.tools,
    overheadRaw: overheadOf(estimator, options.system ?? storedSystem, options.tools),
    now: options.now ?? Date.now,
  };
}

function backgroundOf(settings: SessionOptions['background']): ResolvedSession['background'] {
  if (!settings) return null;
  const soft = checkSoft(settings.soft ?? DEFAULT_SOFT);
  return { soft, ...(settings.queue ? { queue: settings.queue } : {}) };
}
