import { type GateRefusal, gateSummary } from './gate.js';
import type { SummaryRequest } from './input.js';
import { type Summarizer, SummaryRejectedError, type SummaryResult } from './summarizer.js';

/** Why the fallback summary was written instead of the configured one. */
export type FallbackReason = GateRefusal | 'failed';

export interface CheckedSummaryInput {
  summarizer: Summarizer;
  /** false: the summary is used as the summarizer wrote it, and its failure is the caller's. */
  gate: boolean;
  /** The offline summary written when the configured one fails or is refused; null: no fallback. */
  fallback: Summarizer | null;
  request: SummaryRequest;
  /** What the summary replaces, in the budget's tokens. */
  replacedTokens: number;
  /** The text of the messages kept verbatim after the summary. */
  tailText: string;
  signal?: AbortSignal;
}

export interface CheckedSummary {
  result: SummaryResult;
  /** Who wrote the summary that is used. */
  summarizer: { name: string; model?: string };
  /** Set when the fallback wrote it: why, in words. */
  fallback?: { reason: FallbackReason; detail: string };
  /** Probes the summary failed that were completed from the session's facts. */
  completed: string[];
}

const who = (s: Summarizer) => ({ name: s.name, ...(s.model === undefined ? {} : { model: s.model }) });

function aborted(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof SummaryRejectedError && error.reason === 'aborted');
}

/**
 * Summarize → gate → (complete | fall back). A summarizer that throws (a tool call instead of text,
 * nothing at all, a provider error) or whose summary the gate refuses is replaced by the fallback,
 * whose result is gated too and used as it is if it still misses a probe (it is the bounded
 * deterministic handover: what it leaves out, it counts). An abort is never replaced.
 */
export async function summarizeChecked(input: CheckedSummaryInput): Promise<CheckedSummary> {
  const { summarizer, fallback, request, signal } = input;
  const gate = (result: SummaryResult) =>
    input.gate && request.budget?.count
      ? gateSummary({
          result,
          replacedTokens: input.replacedTokens,
          tailText: input.tailText,
          ...(request.plan.requestInTail || request.plan.latestUserRequest === undefined
            ? {}
            : { latestRequest: request.plan.latestUserRequest }),
          budget: { tokens: request.budget.tokens, count: request.budget.count },
        })
      : { ok: true as const, result, completed: [] as string[] };
  const canFall = fallback !== null && fallback.name !== summarizer.name;
  let reason: { reason: FallbackReason; detail: string };
  try {
    const result = await summarizer.summarize(request, signal);
    const verdict = gate(result);
    if (verdict.ok)
      return { result: verdict.result, summarizer: who(summarizer), completed: verdict.completed };
    // The extractive summary is the bounded handover itself: what it leaves out, it counts.
    if (summarizer.name === 'extractive') return { result, summarizer: who(summarizer), completed: [] };
    if (!canFall) throw new SummaryRejectedError('refused', verdict.detail, { text: result.text });
    reason = { reason: verdict.reason, detail: verdict.detail };
  } catch (error) {
    if (!canFall || aborted(error, signal)) throw error;
    reason = { reason: 'failed', detail: error instanceof Error ? error.message : String(error) };
  }
  signal?.throwIfAborted();
  const result = await fallback.summarize(request, signal);
  const verdict = gate(result);
  return {
    result: verdict.ok ? verdict.result : result,
    summarizer: who(fallback),
    fallback: reason,
    completed: verdict.ok ? verdict.completed : [],
  };
}
