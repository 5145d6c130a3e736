import { type LocomoLayout, layoutMessages } from './layouts.js';
import type { LocomoConversation } from './locomo.js';
import { messageTokens } from './real-count.js';
import type { Timed } from './shipped.js';
import type { Context } from './strategies.js';

/** A way of fitting a conversation into a token budget (condense, keep-newest, even sample). */
export type Strategy = (
  messages: readonly Timed[],
  budget: number,
  count: (text: string) => number,
) => Promise<Context>;

export interface LocomoRow {
  strategy: string;
  layout: LocomoLayout;
  /** The budget as a share of the conversation's tokens. */
  share: number;
  /** Share of (question, evidence turn) pairs whose turn is in the context verbatim. */
  evidence: number;
  /** Share of answerable questions whose answer text is in the context. */
  answers: number;
  /** Tokens the context used, as a share of its budget (summed over conversations). */
  used: number;
  /** The largest context as a share of its own budget (over 1: a budget was broken). */
  worst: number;
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
/** Case, punctuation and spacing ignored: "7 May, 2023" matches "7 may 2023". */
const loose = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

interface Tally {
  evidence: [number, number];
  answers: [number, number];
  tokens: number;
  budget: number;
  worst: number;
}

function score(conv: LocomoConversation, context: Context, t: Tally): void {
  const text = flat(context.text);
  const looseText = ` ${loose(context.text)} `;
  for (const q of conv.questions) {
    for (const id of q.evidence) {
      t.evidence[1]++;
      if (text.includes(flat(conv.turnText.get(id)!))) t.evidence[0]++;
    }
    if (q.answer === undefined || q.category === 5) continue;
    t.answers[1]++;
    if (looseText.includes(` ${loose(q.answer)} `)) t.answers[0]++;
  }
}

/** Every strategy on every conversation, in every layout, at every budget share (real tokens). */
export async function evalLocomo(
  conversations: readonly LocomoConversation[],
  strategies: ReadonlyArray<[string, Strategy]>,
  shares: readonly number[],
  layouts: readonly LocomoLayout[],
  count: (text: string) => number,
): Promise<LocomoRow[]> {
  const rows: LocomoRow[] = [];
  for (const layout of layouts) {
    const written = conversations.map((c) => layoutMessages(c, layout));
    for (const share of shares) {
      for (const [name, strategy] of strategies) {
        const t: Tally = { evidence: [0, 0], answers: [0, 0], tokens: 0, budget: 0, worst: 0 };
        for (const [i, conv] of conversations.entries()) {
          const messages = written[i]!;
          const total = messages.reduce((a, m) => a + messageTokens(m.message, count), 0);
          const budget = Math.floor(total * share);
          const context = await strategy(messages, budget, count);
          score(conv, context, t);
          t.tokens += context.tokens;
          t.budget += budget;
          t.worst = Math.max(t.worst, context.tokens / budget);
        }
        rows.push({
          strategy: name,
          layout,
          share,
          evidence: t.evidence[0] / t.evidence[1],
          answers: t.answers[0] / t.answers[1],
          used: t.tokens / t.budget,
          worst: t.worst,
        });
      }
    }
  }
  return rows;
}
