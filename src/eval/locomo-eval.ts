import type { MessageEntry } from '../model/entry.js';
import type { LocomoConversation } from './locomo.js';
import type { Context } from './strategies.js';

/** A way of fitting a conversation into a token budget (condense, keep-newest-tail, even sample). */
export type Strategy = (entries: MessageEntry[], budget: number) => Promise<Context>;

export interface LocomoRow {
  strategy: string;
  /** The budget as a share of the conversation's tokens. */
  share: number;
  /** Share of (question, evidence turn) pairs whose turn is in the context verbatim. */
  evidence: number;
  /** Share of answerable questions whose answer text is in the context. */
  answers: number;
  /** Tokens the context used, as a share of its budget (summed over conversations). */
  used: number;
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

/** Every strategy on every conversation at every budget share. */
export async function evalLocomo(
  conversations: readonly LocomoConversation[],
  strategies: ReadonlyArray<[string, Strategy]>,
  shares: readonly number[],
): Promise<LocomoRow[]> {
  const rows: LocomoRow[] = [];
  for (const share of shares) {
    for (const [name, strategy] of strategies) {
      const t: Tally = { evidence: [0, 0], answers: [0, 0], tokens: 0, budget: 0 };
      for (const conv of conversations) {
        const total = conv.entries.reduce((a, e) => a + e.tokens, 0);
        const budget = Math.floor(total * share);
        const context = await strategy(conv.entries, budget);
        score(conv, context, t);
        t.tokens += context.tokens;
        t.budget += budget;
      }
      rows.push({
        strategy: name,
        share,
        evidence: t.evidence[0] / t.evidence[1],
        answers: t.answers[0] / t.answers[1],
        used: t.tokens / t.budget,
      });
    }
  }
  return rows;
}
