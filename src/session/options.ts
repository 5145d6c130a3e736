import type { ModelMessage } from 'ai';
import type { BudgetConfig } from '../budget/index.js';
import type { PlanOptions, Summarizer } from '../compact/index.js';
import type { ViewOptions } from '../context/index.js';
import type { CompactionEntry } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { PruneOptions } from '../prune/index.js';
import type { Estimator } from '../tokens/estimator.js';
import type { ModelLimits } from '../tokens/models.js';

export type PruneSettings = Partial<PruneOptions> & {
  /** 'turn' (default): checked in every prepare(), acting in batches; 'open': when the session opens (seed 000). */
  when?: 'turn' | 'open';
};

export interface CompactionSettings {
  /** Default: the extractive summarizer (offline, no model needed). */
  summarizer?: Summarizer;
  plan?: PlanOptions;
  /** How the summary appears in the model's view (default 'user'). */
  summaryAs?: ViewOptions['summaryAs'];
  /** Token budget the summary should respect (extractive). */
  summaryTokens?: number;
  /** Append seed 001's continue message after an automatic compaction; a string replaces the text. */
  continueMessage?: boolean | string;
  /** Extra instructions for every summary. */
  instructions?: string;
  /**
   * A provider's token count (a count endpoint, or seed 004's 16-token probe request) of the
   * context after compaction, given exactly as prepare() would send it; undefined keeps the local
   * estimate.
   */
  countTokens?: (context: {
    messages: ModelMessage[];
    system?: string;
    tools?: unknown;
  }) => Promise<number | undefined>;
  /** Summary text as stored, given the summarizer's text and the plan (seed layouts use this). */
  formatSummary?: (text: string, latestRequest: string | undefined) => string;
}

export interface CheckSettings {
  /** Check real usage after every model step (seeds 000/001). Default true. */
  afterStep?: boolean;
  /** Check the hybrid estimate before every turn (seeds 003/004). Default true. */
  beforeTurn?: boolean;
  /** Count the step's output tokens in the after-step total (seed 001: yes). Default true. */
  countOutput?: boolean;
  /**
   * Count prompt tokens written to the provider's cache in the after-step total. Default true (they
   * are in the prompt); seeds 000/001 count input + cache read + output only (C-05).
   */
  countCacheWrite?: boolean;
}

export interface SessionHooks {
  /** Runs before a compaction; returning false cancels it. */
  beforeCompact?: (info: {
    auto: boolean;
    tokensBefore: number;
  }) => boolean | undefined | Promise<boolean | undefined>;
  afterCompact?: (pivot: CompactionEntry) => void | Promise<void>;
}

export interface SessionOptions {
  /** Model id, used to look up the context window and output limit. */
  model?: string;
  /** Overrides of (or instead of) the registry's limits. */
  limits?: Partial<ModelLimits>;
  budget?: Omit<Partial<BudgetConfig>, 'contextWindow' | 'maxOutput' | 'inputLimit'>;
  estimator?: 'heuristic' | 'exact' | Estimator;
  /**
   * The agent's system prompt: sent first, and counted. Default: the session's `metadata.system`
   * (where an import stores the transcript's own system prompt), so no summary can swallow it.
   */
  system?: string;
  /** Metadata stored with the session when this call creates it. */
  metadata?: JsonObject;
  /** The agent's tool definitions (their JSON schemas): never in the log, but counted. */
  tools?: unknown;
  /** false disables pruning. */
  prune?: false | PruneSettings;
  compaction?: CompactionSettings;
  checks?: CheckSettings;
  hooks?: SessionHooks;
  /** Clock, for tests. */
  now?: () => number;
}
