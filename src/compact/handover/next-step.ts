import { clipLine } from '../error-lines.js';

/** A sentence announcing what the agent does next ("Next, I'll…", "Let me…", "I will now…"). */
const NEXT_ACTION =
  /\b(?:next,? (?:I|we)\b|(?:I|we)(?:['’]ll| will| am going to|['’]m going to|['’]re going to| need to| still need to)\s+(?!be\b|have\b)\w+|let me\b|let's\b|now (?:I|we)\b|next step|remaining\b|still (?:need|to do)|to do:|TODO\b)/i;
const MAX_CHARS = 400;
/** How much of a message's end is read: an opening "Let me fix that." was done by the message itself. */
const TAIL_CHARS = 1_500;
const LAST_SENTENCES = 4;

/** How much of a message is read to tell its prose from its code. */
const WINDOW_CHARS = 8_000;

function sentencesOf(text: string): string[] {
  let window = text.length > WINDOW_CHARS ? text.slice(-WINDOW_CHARS) : text;
  // A window that starts inside a fenced block starts after it.
  if ((window.match(/```/g)?.length ?? 0) % 2 === 1) window = window.slice(window.indexOf('```') + 3);
  // Code is no sentence: a fenced block is left out whole.
  const prose = window.replace(/```[\s\S]*?```/g, '\n');
  const tail = prose.length > TAIL_CHARS ? prose.slice(-TAIL_CHARS) : prose;
  return tail
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) =>
      s
        .replace(/^\s*(?:[-*•>#]+|\d+[.)])\s*/, '')
        .replace(/\*\*/g, '')
        .trim(),
    )
    .filter((s) => s.length >= 6 && /[A-Za-z]/.test(s));
}

/**
 * What the agent said it would do next, or asked the user, at the end of the reply that closed
 * its turn: one of its last sentences, verbatim. Undefined when it said neither.
 */
export function statedNextAction(text: string): { text: string; question: boolean } | undefined {
  const last = sentencesOf(text).slice(-LAST_SENTENCES);
  for (let i = last.length - 1; i >= 0; i--) {
    const s = last[i]!;
    if (s.length > MAX_CHARS) continue;
    if (s.endsWith('?') && i >= last.length - 2) return { text: s, question: true };
    if (NEXT_ACTION.test(s)) return { text: s, question: false };
  }
  return undefined;
}

/** The last sentence of a reply, verbatim (clipped), for when it announced nothing. */
export function closingSentence(text: string): string | undefined {
  const s = sentencesOf(text).at(-1);
  return s === undefined ? undefined : clipLine(s, MAX_CHARS);
}
