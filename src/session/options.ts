import type { LanguageModel, ModelMessage } from 'ai';
import type { BudgetConfig } from '../budget/index.js';
import type { PlanOptions, Summarizer, SummaryCall } from '../compact/index.js';
import type { ViewOptions } from '../context/index.js';
import type { CompactionEntry } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { Message } from '../model/message.js';
import type { PruneOptions } from '../prune/index.js';
import type { Estimator } from '../tokens/estimator.js';
import type { ModelLimits } from '../tokens/models.js';
import type { CompactionQueue } from './background/queue.js';
import type { ForkMode } from './fork.js';

export type PruneSettings = Partial<PruneOptions> & {
  /** 'turn' (default): checked in every prepare(), acting in batches; 'open': when the session opens (Qwery). */
  when?: 'turn' | 'open';
};

export interface CompactionSettings {
  /**
   * Default: an LLM summary by the session's own model when `model` is an AI SDK model (opencode),
   * else the extractive summarizer (offline, no model needed).
   */
  summarizer?: Summarizer;
  plan?: PlanOptions;
  /** How the summary appears in the model's view (default 'user'). */
  summaryAs?: ViewOptions['summaryAs'];
  /**
   * What an automatic compaction leaves: the summary and the verbatim tail together, in the
   * provider's tokens (system prompt and tools aside). condense chooses the split. Default: half
   * the room the trigger limit leaves beside the system prompt and tools.
   */
  targetTokens?: number;
  /** A cap on the summary's share of the target. */
  summaryTokens?: number;
  /** Append opencode's continue message after an automatic compaction; a string replaces the text. */
  continueMessage?: boolean | string;
  /** Extra instructions for every summary. */
  instructions?: string;
  /**
   * A provider's token count (a count endpoint, or Mistral Vibe's 16-token probe request) of the
   * context after compaction, given exactly as prepare() would send it; undefined keeps the local
   * estimate.
   */
  countTokens?: (context: {
    messages: ModelMessage[];
    system?: string;
    tools?: unknown;
  }) => Promise<number | undefined>;
  /**
   * The summary as stored, from the summarizer's text: when set, exactly what it returns (seed
   * presets add only what their seed adds). Default: the text, with the user's latest request
   * appended verbatim when the summary does not already carry it.
   */
  formatSummary?: (text: string, context: SummaryContext) => string;
  /**
   * Tokens the stored summary counts for in the context (the pivot's own estimate, hence its
   * `tokensAfter`), given the session's estimator. Default: its count of the text plus a
   * message's framing.
   */
  countSummary?: (summary: string, estimator: Estimator) => number;
  /**
   * The LLM summary call made of the conversation itself, as a seed makes it (system prompt, the
   * history as the model saw it, a final instruction). Default: a transcript of the summarized
   * span under opencode's prompts, chunked when too large.
   */
  summaryCall?: SummaryCall;
  /**
   * Add the deterministic handover to every summary (current task, constraints, next step, pending
   * work, open failures, state-changing commands, key values, files, requests). Default true.
   */
  appendix?: boolean;
  /**
   * Check every summary before it is stored — the latest request, modified files, open failures and
   * key values present (completed from the session's facts when missing), smaller than what it
   * replaces, within its budget — and write the extractive summary instead when the summarizer
   * fails or the check refuses it (event 'compaction:fallback'). Default true; the seed presets
   * turn it off to behave as their seeds do.
   */
  gate?: boolean;
  /**
   * With the gate on: false makes a failed or refused summary an error (nothing is written)
   * instead of writing the extractive one. Default true.
   */
  fallback?: boolean;
  /**
   * Show a queued compaction task as this question, in the context and in the summary call (seed
   * 001: "What did we do so far?"). Default: queued tasks are not shown.
   */
  markerQuestion?: string;
  /** Store every compaction, manual ones too, as a task message first (Qwery and opencode). Default false. */
  recordTask?: boolean;
  /**
   * After this many automatic compactions failed in a row, stop trying (event
   * 'compaction:stopped', CompactionStoppedError) until a manual `compact()`. Default 3: a
   * summarizer that keeps failing (a bad key, a model that returns nothing) is not called every turn.
   */
  maxFailures?: number;
}

/** What a `formatSummary` policy may use besides the summarizer's text. */
export interface SummaryContext {
  /** The user's newest request in the summarized span (or the one the previous pivot recorded). */
  latestRequest: string | undefined;
  /** The summarized span as the model saw it (no system prompt). */
  view: Message[];
}

export interface CheckSettings {
  /** Check real usage after every model step (Qwery and opencode). Default true. */
  afterStep?: boolean;
  /** Check the hybrid estimate before every turn (Pegasus and Mistral Vibe). Default true. */
  beforeTurn?: boolean;
  /** Count the step's output tokens in the after-step total (opencode: yes). Default true. */
  countOutput?: boolean;
  /**
   * Count prompt tokens written to the provider's cache in the after-step total. Default true (they
   * are in the prompt); Qwery and opencode count input + cache read + output only.
   */
  countCacheWrite?: boolean;
  /**
   * Count the output's reasoning tokens in the after-step total. Default false: providers mostly
   * do not resend a turn's reasoning, so it does not fill the next prompt. Mistral Vibe counts it.
   */
  countReasoning?: boolean;
  /**
   * When the session opens, check the last step's stored usage; on overflow, compact before
   * anything else (then the opening prune runs), as Qwery does at every agent session start.
   */
  atOpen?: boolean;
  /**
   * The before-turn figure: 'calibrated' (default) scales local estimates by the ratio learned from
   * reported usage and adds the declared overhead; 'local' is Pegasus's: the last prompt tokens
   * reported to this process + the raw local estimate of what came since, or (first call, after a
   * restart or a compaction) the local estimate of the session's entries.
   */
  estimate?: 'calibrated' | 'local';
}

/**
 * Background compaction: past the soft threshold a summary of the current prefix is prepared off
 * the agent's path; at the hard threshold (the compaction trigger) it becomes the pivot at once if
 * the prefix it covers is unchanged, else the compaction runs as usual.
 */
export interface BackgroundSettings {
  /** Share of the compaction trigger (the usable budget or a lower limit) to start at, in (0, 1). Default 0.6. */
  soft?: number;
  /**
   * Where the summaries are made. Default: an in-process queue writing them with this session's
   * summarizer. `pgBossQueue` from `condense-context/pg-boss` runs them on PostgreSQL workers.
   */
  queue?: CompactionQueue;
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
  /**
   * The model: an id, or an AI SDK model object (its `modelId` is looked up, and it summarizes
   * unless `compaction.summarizer` says otherwise). Its context window and output limit come from
   * the model catalog (unknown ids: 128,000, with a `window:fallback` event).
   */
  model?: string | Exclude<LanguageModel, string>;
  /** Overrides of (or instead of) the model catalog's limits. */
  limits?: Partial<ModelLimits>;
  /**
   * A model table looked up instead of the catalog, by exact id (registered models still apply;
   * an id it lacks gets the 128,000 fallback). The pegasus preset sets Pegasus's own table.
   */
  models?: Readonly<Record<string, ModelLimits>>;
  budget?: Omit<Partial<BudgetConfig>, 'contextWindow' | 'maxOutput' | 'inputLimit'>;
  estimator?: 'heuristic' | 'exact' | Estimator;
  /**
   * The agent's system prompt: sent first, and counted. Default: the session's `metadata.system`
   * (where an import stores the transcript's own system prompt), so no summary can swallow it.
   */
  system?: string;
  /** Metadata stored with the session when this call creates it. */
  metadata?: JsonObject;
  /**
   * The agent's tools: an AI SDK tool set (counted by the JSON schema the provider receives,
   * descriptions included) or plain JSON definitions. Never in the log, but counted.
   */
  tools?: unknown;
  /** false disables pruning. */
  prune?: false | PruneSettings;
  /**
   * A message whose text alone is over the usable budget fits no request. 'error' (default):
   * prepare() throws RequestTooLargeError naming it. 'truncate': such a text part is stored with its
   * start and end around a visible marker, the full text kept in the message's metadata.
   */
  oversize?: 'error' | 'truncate';
  compaction?: CompactionSettings;
  checks?: CheckSettings;
  hooks?: SessionHooks;
  /** Prepare summaries in the background (off by default): see BackgroundSettings. */
  background?: false | BackgroundSettings;
  /** How `fork` starts a new session when the call does not say (default 'exact'; Nexus: 'summary'). */
  fork?: { mode?: ForkMode };
  /** Clock, for tests. */
  now?: () => number;
}
