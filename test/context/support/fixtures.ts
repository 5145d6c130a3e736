import { buildCompactionEntry, buildMessageEntry } from '../../../src/model/build.js';
import type { Entry, Pivot } from '../../../src/model/entry.js';
import type { AssistantMessage, Message, UserMessage } from '../../../src/model/message.js';
import type { AssistantPart, ToolPart } from '../../../src/model/parts.js';
import { heuristicEstimator } from '../../../src/tokens/estimator.js';

export const user = (text: string): UserMessage => ({ role: 'user', parts: [{ type: 'text', text }] });
export const assistant = (...parts: Array<AssistantPart | string>): AssistantMessage => ({
  role: 'assistant',
  parts: parts.map((p) => (typeof p === 'string' ? { type: 'text', text: p } : p)),
});
export const tool = (callId: string, output: string, extra: Partial<ToolPart> = {}): ToolPart =>
  ({
    type: 'tool',
    callId,
    name: 'read',
    input: { path: callId },
    state: 'completed',
    output,
    ...extra,
  }) as ToolPart;

export function pivot(
  summary: string,
  summarizedThroughId: string,
  firstKeptId: string | null,
  extra: Partial<Pivot> = {},
): Pivot {
  return {
    summary,
    summarizedThroughId,
    firstKeptId,
    tokensBefore: 100,
    tokensAfter: 10,
    auto: true,
    summarizer: 'extractive',
    details: { filesRead: [], filesModified: [] },
    previousPivotId: null,
    ...extra,
  };
}

/** A log from messages and pivots in order; ids are e0, e1, … by position. */
export function log(items: Array<Message | Pivot>): Entry[] {
  const est = heuristicEstimator();
  const out: Entry[] = [];
  items.forEach((item, seq) => {
    const place = { sessionId: 's', seq, parentId: out.at(-1)?.id ?? null, id: `e${seq}` };
    out.push('role' in item ? buildMessageEntry(item, place, est) : buildCompactionEntry(item, place, est));
  });
  return out;
}

export const texts = (messages: Message[]): string[] =>
  messages.map((m) => `${m.role}:${m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join('|')}`);
