import { generateText, type LanguageModel } from 'ai';
import { type Estimator, heuristicEstimator } from '../tokens/estimator.js';
import { chunkTranscript } from './chunk.js';
import { handoverAndDetails } from './handover/build.js';
import { handoverBudget, renderHandover } from './handover/render.js';
import {
  fitsWindow,
  PREVIOUS_SUMMARY_HEADING,
  requestTokens,
  requestUserParts,
  type SummaryPromptStyle,
  type SummaryRequest,
} from './input.js';
import { rejectionFor, rejectionForError } from './llm-validate.js';
import { SEED_001_FINAL_INSTRUCTION, SEED_004_PROMPT } from './prompts.js';
import { type Summarizer, SummaryRejectedError, type SummaryResult } from './summarizer.js';
import type { LlmCall } from './summary-call.js';

export interface LlmSummarizerOptions {
  model: LanguageModel;
  /** The summarizer model's own context window (default 128,000, Pegasus's fallback). */
  contextWindow?: number;
  /** Output limit per call; also the room reserved in the window for the answer (default 8,000). */
  maxOutputTokens?: number;
  /** Replaces the request's final instruction with this seed's prompt (instructions still appended). */
  prompt?: SummaryPromptStyle;
  estimator?: Estimator;
  /** Share of the window condense lets itself fill, for estimator error (default 0.9). */
  headroom?: number;
  /**
   * Token budget of the handover block appended to the model's summary (default: HANDOVER_SHARE
   * of the summary's budget, else 2,000); the model's answer gets the rest of the budget.
   */
  handoverTokens?: number;
  /** Passed to generateText (AI SDK default 2): transient provider errors only. */
  maxRetries?: number;
  temperature?: number;
}

/** Instruction for one chunk of a transcript too large for a single call. */
export const CHUNK_PROMPT =
  'Summarize this part of the conversation. Keep every file path, command, error message, number, decision and ' +
  'user constraint exactly as written: this summary will be combined with the summaries of the other parts.';

const PART_HEADING = (i: number, n: number) => `[Part ${i} of ${n}]`;

/**
 * A summarizer backed by any AI SDK language model, called without tools. Inputs too large for
 * the model's window are summarized in chunks and the partial summaries combined (map-reduce),
 * so no call exceeds the window. Any doubtful result is rejected with SummaryRejectedError.
 */
export function llmSummarizer(options: LlmSummarizerOptions): Summarizer {
  const estimator = options.estimator ?? heuristicEstimator();
  const maxOutputTokens = options.maxOutputTokens ?? 8_000;
  const window = Math.floor((options.contextWindow ?? 128_000) * (options.headroom ?? 0.9));
  const modelId = typeof options.model === 'string' ? options.model : options.model.modelId;

  /** One generateText call; its text exactly as the model wrote it, or a rejection. */
  async function generate(request: LlmCall, out: number, signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) throw rejectionForError(signal.reason, signal);
    let result: Awaited<ReturnType<typeof generateText>>;
    try {
      result = await generateText({
        model: options.model,
        ...request,
        maxOutputTokens: out,
        abortSignal: signal,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      });
    } catch (err) {
      throw rejectionForError(err, signal);
    }
    const rejection = rejectionFor(result);
    if (rejection) throw rejection;
    return result.text;
  }

  async function call(
    system: string,
    parts: [string, string],
    out: number,
    signal?: AbortSignal,
  ): Promise<string> {
    const content = parts.map((text) => ({ type: 'text' as const, text }));
    return (await generate({ system, messages: [{ role: 'user', content }] }, out, signal)).trim();
  }

  /** One call over one piece of material, with the chunk instruction. */
  function callPiece(system: string, piece: string, out: number, signal?: AbortSignal): Promise<string> {
    return call(system, requestUserParts({ prompt: CHUNK_PROMPT, transcript: piece }), out, signal);
  }

  /** Partial summaries combined level by level until one call can take them all. */
  async function reduce(
    request: SummaryRequest,
    partials: string[],
    budget: number,
    out: number,
    signal?: AbortSignal,
  ) {
    let level = partials;
    for (;;) {
      const headed = level.map((p, i) => `${PART_HEADING(i + 1, level.length)}\n${p}`);
      const combined = { system: request.system, prompt: request.prompt, transcript: headed.join('\n\n') };
      if (fitsWindow(combined, window, estimator, out)) {
        return call(request.system, requestUserParts(combined), out, signal);
      }
      const groups = chunkTranscript(headed, budget, estimator);
      if (groups.length >= level.length) {
        throw new SummaryRejectedError(
          'too-large',
          `partial summaries do not fit a ${window}-token window in pairs`,
        );
      }
      const next: string[] = [];
      for (const group of groups) next.push(await callPiece(request.system, group, out, signal));
      level = next;
    }
  }

  async function mapReduce(request: SummaryRequest, out: number, signal?: AbortSignal): Promise<string> {
    const overhead = requestTokens(
      { system: request.system, prompt: CHUNK_PROMPT, transcript: '' },
      estimator,
    );
    // Room for the heading of a part and the estimator's rounding at the joins.
    const budget = window - out - overhead - 32;
    // Combining needs at least two partial summaries (each up to `out` tokens) per call.
    if (budget < 2 * out + 64) {
      throw new SummaryRejectedError(
        'too-large',
        `a ${window}-token window cannot hold two ${out}-token partial summaries plus an answer`,
      );
    }
    const blocks = request.previousSummary
      ? [`${PREVIOUS_SUMMARY_HEADING}\n${request.previousSummary}`, ...request.blocks]
      : request.blocks;
    const chunks = chunkTranscript(blocks, budget, estimator);
    const partials: string[] = [];
    for (const [i, chunk] of chunks.entries()) {
      partials.push(
        await callPiece(request.system, `${PART_HEADING(i + 1, chunks.length)}\n${chunk}`, out, signal),
      );
    }
    return reduce(request, partials, budget, out, signal);
  }

  return {
    name: 'llm',
    model: modelId,
    async summarize(input: SummaryRequest, signal?: AbortSignal): Promise<SummaryResult> {
      const request = withPromptStyle(input, options.prompt);
      const { plan } = request;
      const { handover, details } = handoverAndDetails({
        span: plan.toSummarize,
        ...(plan.previousPivot ? { previous: plan.previousPivot.pivot.details } : {}),
        ...(plan.latestUserRequest === undefined ? {} : { latestRequest: plan.latestUserRequest }),
        requestInTail: plan.requestInTail,
        tail: plan.toKeep,
      });
      // The handover block keeps to its share (more when the latest request needs it); the answer
      // is asked to keep to the rest of the summary's share of the target.
      const count = request.budget?.count ?? estimator.text;
      // A conversation's messages are the summary's own matter: its handover is the task and the rules.
      const shown = handover.chat ? { ...handover, requests: [] } : handover;
      const reserve =
        request.appendix === false
          ? 0
          : (options.handoverTokens ??
            (request.budget ? handoverBudget(shown, request.budget.tokens, count) : 2_000));
      const out = Math.max(
        64,
        Math.min(maxOutputTokens, request.budget ? request.budget.tokens - reserve : maxOutputTokens),
      );
      // A seed's own call: the history as messages, sent as given (no chunking: the seeds have none).
      const text = request.call
        ? await generate(request.call, out, signal)
        : fitsWindow(request, window, estimator, out)
          ? await call(request.system, requestUserParts(request), out, signal)
          : await mapReduce(request, out, signal);
      if (request.appendix === false) return { text, details };
      const block = renderHandover(shown, { budgetTokens: reserve, estimator: { text: count } }).text;
      return { text: block === '' ? text : `${text.trimEnd()}\n\n${block}`, details };
    },
  };
}

function withPromptStyle(request: SummaryRequest, style: SummaryPromptStyle | undefined): SummaryRequest {
  if (style === undefined) return request;
  const base = style === 'seed-001' ? SEED_001_FINAL_INSTRUCTION : SEED_004_PROMPT;
  return { ...request, prompt: request.instructions ? `${base}\n\n${request.instructions}` : base };
}
