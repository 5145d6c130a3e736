import type { PivotDetails } from '../model/entry.js';
import type { Message } from '../model/message.js';
import { messageTokens } from './real-count.js';
import { messageText } from './text.js';

export { messageText } from './text.js';

/** What one strategy leaves in the context at a budget: its text (for the checks) and its real size. */
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

function keep(messages: readonly Message[], count: (text: string) => number): Context {
  return {
    tokens: messages.reduce((a, m) => a + messageTokens(m, count), 0),
    text: messages.map(messageText).join('\n'),
  };
}

/** The newest messages that fit the budget. */
export function newestTail(
  messages: readonly Message[],
  budget: number,
  count: (text: string) => number,
): Context {
  let tokens = 0;
  let from = messages.length;
  while (from > 0 && tokens + messageTokens(messages[from - 1]!, count) <= budget)
    tokens += messageTokens(messages[--from]!, count);
  return keep(messages.slice(from), count);
}

/** The most messages, spread evenly over the whole conversation, that fit the budget. */
export function evenSample(
  messages: readonly Message[],
  budget: number,
  count: (text: string) => number,
): Context {
  const sizes = messages.map((m) => messageTokens(m, count));
  const pick = (k: number) =>
    k === 1
      ? [messages.length - 1]
      : Array.from({ length: k }, (_, i) => Math.round((i * (messages.length - 1)) / (k - 1)));
  // The largest k that fits, by bisection: the size of an even pick grows with k (near enough).
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const k = Math.ceil((lo + hi) / 2);
    if (pick(k).reduce((a, i) => a + sizes[i]!, 0) <= budget) lo = k;
    else hi = k - 1;
  }
  return keep(lo === 0 ? [] : pick(lo).map((i) => messages[i]!), count);
}
