import {
  buildSummaryRequest,
  type CompactionPlan,
  isNothingToCompact,
  planCompaction,
  type Summarizer,
} from '../compact/index.js';
import type { MessageEntry, PivotDetails } from '../model/entry.js';
import type { Message } from '../model/message.js';
import { type Estimator, toolOutputText } from '../tokens/estimator.js';

/** What one strategy leaves in the context at a budget: its text (for the checks) and its size. */
export interface Context {
  tokens: number;
  text: string;
  /** The summary alone, when the strategy wrote one. */
  summary?: string;
  /** Facts the summarizer extracted (condense only). */
  details?: PivotDetails;
  /** The newest request the summary named as the latest (condense only). */
  latestRequest?: string;
}

/** Everything of a message the model reads: text, tool calls with their input, outputs and errors. */
export function messageText(message: Message): string {
  const out: string[] = [];
  for (const p of message.parts) {
    if (p.type === 'text' || p.type === 'reasoning') out.push(p.text);
    else if (p.type === 'tool') out.push(`${p.name} ${JSON.stringify(p.input)}`, toolOutputText(p));
  }
  return out.join('\n');
}

function keep(entries: readonly MessageEntry[]): Context {
  return {
    tokens: entries.reduce((a, e) => a + e.tokens, 0),
    text: entries.map((e) => messageText(e.message)).join('\n'),
  };
}

/** The newest messages that fit the budget. */
export function newestTail(entries: readonly MessageEntry[], budget: number): Context {
  let tokens = 0;
  let from = entries.length;
  while (from > 0 && tokens + entries[from - 1]!.tokens <= budget) tokens += entries[--from]!.tokens;
  return keep(entries.slice(from));
}

/** The most messages, spread evenly over the whole conversation, that fit the budget. */
export function evenSample(entries: readonly MessageEntry[], budget: number): Context {
  const pick = (k: number) =>
    k === 1
      ? [entries.at(-1)!]
      : Array.from({ length: k }, (_, i) => entries[Math.round((i * (entries.length - 1)) / (k - 1))]!);
  const size = (list: MessageEntry[]) => list.reduce((a, e) => a + e.tokens, 0);
  for (let k = entries.length; k > 0; k--) {
    const list = pick(k);
    if (size(list) <= budget) return keep(list);
  }
  return keep([]);
}

/** Share of the budget the kept tail may take; the summary gets the rest (see README, Evaluation). */
export const TAIL_SHARE = 0.1;
/** Framing tokens of the summary message (the estimator's per-message overhead). */
const SUMMARY_FRAMING = 4;

/**
 * condense at a budget: the newest turns up to TAIL_SHARE of it stay verbatim and the summarizer
 * gets the rest (`summarizerFor(budget)`: the extractive one takes it as `contextTokens`),
 * exactly as a compaction would send them.
 */
export async function condensed(
  entries: MessageEntry[],
  budget: number,
  summarizerFor: (contextTokens: number, plan: CompactionPlan) => Summarizer,
  estimator: Estimator,
): Promise<Context> {
  const plan = planCompaction(entries, { keepTokens: Math.floor(budget * TAIL_SHARE) });
  if (isNothingToCompact(plan)) return keep(entries);
  const { text, details } = await summarizerFor(budget, plan).summarize(buildSummaryRequest(plan));
  const tail = keep(plan.toKeep);
  return {
    tokens: estimator.text(text) + SUMMARY_FRAMING + tail.tokens,
    text: `${text}\n${tail.text}`,
    summary: text,
    details,
    ...(plan.latestUserRequest === undefined ? {} : { latestRequest: plan.latestUserRequest }),
  };
}
