import type { Estimator } from '../tokens/estimator.js';
import { stripAppendix } from './appendix.js';
import type { CompactionPlan } from './plan.js';
import {
  SEED_001_FINAL_INSTRUCTION,
  SEED_001_MARKER_TEXT,
  SEED_001_SYSTEM_PROMPT,
  SEED_004_PROMPT,
} from './prompts.js';
import type { LlmCall } from './summary-call.js';
import { renderBlocks, type TranscriptOptions } from './transcript.js';

export {
  LAST_REQUEST_PREFIX,
  SEED_000_FINAL_INSTRUCTION,
  SEED_000_SYSTEM_PROMPT,
  SEED_001_FINAL_INSTRUCTION,
  SEED_001_MARKER_TEXT,
  SEED_001_SYSTEM_PROMPT,
  SEED_003_SYSTEM_PROMPT,
  SEED_004_NO_RESPONSE,
  SEED_004_PROMPT,
  SEED_004_SECTIONS,
  SEED_004_UNDERSTOOD,
} from './prompts.js';

export type SummaryPromptStyle = 'seed-001' | 'seed-004';

/**
 * Everything a summarizer needs as text, plus `plan` for summarizers that read entries. The text
 * fields are rendered on first read, so a summarizer that never reads them never pays for them.
 */
export interface SummaryRequest {
  system: string;
  /** The final instruction (seed prompt, then the user's instructions). */
  prompt: string;
  /** The entries to summarize as plain text (`blocks` joined by blank lines). */
  transcript: string;
  /** One transcript block per entry, for chunking. */
  blocks: string[];
  previousSummary?: string;
  instructions?: string;
  plan: CompactionPlan;
  /** Estimated prompt tokens as sent, when an estimator was given (computed on first read). */
  tokens?: number;
  /** false: the summary is the summarizer's text alone, no deterministic appendix (seed presets). */
  appendix?: boolean;
  /** The size the summary must keep to (the compaction's target less the verbatim tail). */
  budget?: SummaryBudget;
  /**
   * The call itself, made of the real history (seed presets, `compaction.summaryCall`): an LLM
   * summarizer sends exactly this instead of a transcript.
   */
  call?: LlmCall;
}

/** A summary's size limit, in the tokens the provider will count. */
export interface SummaryBudget {
  /** Most tokens the summary's text may hold, counted by `count`. */
  tokens: number;
  /** The provider's count of a text (else the summarizer's own estimator). */
  count?: (text: string) => number;
  /** `count` of lines joined by newlines, without joining them, where the count can be made so. */
  countLines?: (lines: readonly string[]) => number;
}

export interface SummaryRequestOptions {
  /** Which seed's final instruction to use (default seed-004's seven sections). */
  prompt?: SummaryPromptStyle;
  /** Overrides the system prompt (default opencode). */
  system?: string;
  /** The user's custom instructions (`compact({ instructions })`, a marker's instructions). */
  instructions?: string;
  transcript?: TranscriptOptions;
  /** Measures the request (`tokens`). */
  estimator?: Estimator;
  /** Ends the transcript with the marker's question, "What did we do so far?" (opencode). */
  markerQuestion?: boolean;
  /** Add the deterministic appendix (default true). */
  appendix?: boolean;
  budget?: SummaryBudget;
}

/** Builds the summarizer input for a plan. Pure. */
export function buildSummaryRequest(
  plan: CompactionPlan,
  options: SummaryRequestOptions = {},
): SummaryRequest {
  const base = options.prompt === 'seed-001' ? SEED_001_FINAL_INSTRUCTION : SEED_004_PROMPT;
  const instructions = options.instructions?.trim();
  const request = {
    system: options.system ?? SEED_001_SYSTEM_PROMPT,
    // Extra lines join the default prompt with a blank line.
    prompt: instructions ? `${base}\n\n${instructions}` : base,
    plan,
    appendix: options.appendix ?? true,
    ...(options.budget ? { budget: options.budget } : {}),
  } as SummaryRequest;
  // Rendered on first use: the extractive summarizer reads entries and never pays for the text.
  let blocks: string[] | undefined;
  let transcript: string | undefined;
  Object.defineProperties(request, {
    blocks: { enumerable: true, get: () => (blocks ??= renderRequestBlocks(plan, options)) },
    transcript: { enumerable: true, get: () => (transcript ??= request.blocks.join('\n\n')) },
  });
  const previous = plan.previousPivot?.pivot.summary;
  if (previous !== undefined) request.previousSummary = stripAppendix(previous);
  if (instructions) request.instructions = instructions;
  const { estimator } = options;
  if (estimator) {
    let tokens: number | undefined;
    Object.defineProperty(request, 'tokens', {
      enumerable: true,
      get: () => (tokens ??= requestTokens(request, estimator)),
    });
  }
  return request;
}

function renderRequestBlocks(plan: CompactionPlan, options: SummaryRequestOptions): string[] {
  const blocks = renderBlocks(plan.toSummarize, options.transcript);
  if (options.markerQuestion) blocks.push(`User: ${SEED_001_MARKER_TEXT}`);
  return blocks;
}

export const PREVIOUS_SUMMARY_HEADING = 'Summary of the conversation before the transcript below:';
export const TRANSCRIPT_HEADING = 'Conversation transcript:';

/**
 * The user-message text parts sent to a model: the material (previous summary + transcript),
 * then the instruction. One user message with two parts keeps providers that want alternation happy.
 */
export function requestUserParts(
  request: Pick<SummaryRequest, 'prompt' | 'transcript' | 'previousSummary'>,
): [string, string] {
  const material: string[] = [];
  if (request.previousSummary) material.push(`${PREVIOUS_SUMMARY_HEADING}\n${request.previousSummary}`);
  material.push(`${TRANSCRIPT_HEADING}\n${request.transcript === '' ? '(empty)' : request.transcript}`);
  return [material.join('\n\n'), request.prompt];
}

/** Per-message framing tokens the estimate adds for the system and the user message. */
const FRAMING_TOKENS = 16;

/** Estimated prompt tokens of a request as sent. */
export function requestTokens(
  request: Pick<SummaryRequest, 'system' | 'prompt' | 'transcript' | 'previousSummary'>,
  estimator: Estimator,
): number {
  const [material, prompt] = requestUserParts(request);
  return estimator.text(request.system) + estimator.text(material) + estimator.text(prompt) + FRAMING_TOKENS;
}

/** Whether the request plus the room reserved for the answer fits the summarizer's window. */
export function fitsWindow(
  request: Pick<SummaryRequest, 'system' | 'prompt' | 'transcript' | 'previousSummary'>,
  window: number,
  estimator: Estimator,
  outputReserve = 0,
): boolean {
  return requestTokens(request, estimator) + outputReserve <= window;
}
