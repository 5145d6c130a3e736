// The span's analysis (SpanReader, span.ts) of the messages with words: their speakers, times and pauses.
import type { MessageEntry } from '../model/entry.js';
import { readHeaders } from './headers.js';
import type { SpanAnalysis } from './span-types.js';

/** A gap between two messages that starts a new session of the conversation. */
const PAUSE_MS = 3_600_000;

/**
 * Speakers and times written into the texts (see headers.ts) become the digests' own: the words
 * alone are weighed and quoted, and pauses are read from the times the texts name.
 */
export function readMessageHeaders(a: SpanAnalysis): void {
  const headers = readHeaders(a.messages.map((m) => m.text));
  if (headers.every((h) => h === null)) return;
  a.messages.forEach((m, i) => {
    const h = headers[i];
    if (!h) return;
    const text = m.text.slice(h.length).trim();
    if (text === '') return;
    m.text = text;
    if (h.who) m.who = h.who;
    if (h.at !== undefined) m.at = h.at;
  });
  a.messages.forEach((m, i) => {
    const prev = a.messages[i - 1];
    m.ctx.opensSession = prev === undefined || m.at - prev.at >= PAUSE_MS;
    m.ctx.closesSession = false;
    if (prev && m.ctx.opensSession) prev.ctx.closesSession = true;
    m.ctx.answersQuestion = prev !== undefined && prev.role !== m.role && prev.text.includes('?');
  });
  const first = a.messages[0];
  const last = a.messages.at(-1);
  if (first && last) a.multiDay = a.multiDay || dayOf(first.at) !== dayOf(last.at);
}

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addMessage(
  a: SpanAnalysis,
  entry: MessageEntry,
  i: number,
  turn: number,
  role: 'user' | 'assistant',
  text: string,
): void {
  const prev = a.messages.at(-1);
  const name = entry.message.metadata?.name;
  const opens = prev === undefined || entry.createdAt - prev.at >= PAUSE_MS;
  if (prev !== undefined && opens) prev.ctx.closesSession = true;
  a.messages.push({
    index: i,
    turn,
    role,
    who: typeof name === 'string' && name !== '' ? name : role === 'user' ? 'User' : 'Assistant',
    at: entry.createdAt,
    text,
    queued: entry.message.metadata?.queued === true,
    ctx: {
      answersQuestion: prev !== undefined && prev.role !== role && prev.text.includes('?'),
      opensSession: opens,
      closesSession: false,
    },
  });
}
