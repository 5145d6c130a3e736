import { buildCompactionEntry, buildMessageEntry } from '../../src/model/build.js';
import type { Entry, Pivot } from '../../src/model/entry.js';
import type { AssistantMessage, Message, UserMessage } from '../../src/model/message.js';
import type { FilePart, ToolPart } from '../../src/model/parts.js';
import { makeEstimator } from '../../src/tokens/estimator.js';

/** Exactly chars / 4 for the multiples of 4 the tests use, so sizes read as tokens. */
export const estimator = makeEstimator('quarter', (text) => Math.ceil(text.length / 4));

export const K = 1000;

export function user(text = 'do it', metadata?: UserMessage['metadata']): UserMessage {
  return { role: 'user', parts: [{ type: 'text', text }], ...(metadata ? { metadata } : {}) };
}

export function marker(): UserMessage {
  return { role: 'user', parts: [{ type: 'compaction', auto: true }] };
}

let callCounter = 0;

export interface ToolSpec {
  name?: string;
  state?: ToolPart['state'];
  compactedAt?: number;
  attachments?: FilePart[];
}

/** A finished tool part whose output (or error) is `tokens` tokens long under `estimator`. */
export function tool(tokens: number, spec: ToolSpec = {}): ToolPart {
  const base = {
    type: 'tool' as const,
    callId: `c${++callCounter}`,
    name: spec.name ?? 'read',
    input: { n: 1 },
  };
  const text = 'x'.repeat(tokens * 4);
  const extra = spec.compactedAt === undefined ? {} : { compactedAt: spec.compactedAt };
  const attachments = spec.attachments ? { attachments: spec.attachments } : {};
  switch (spec.state ?? 'completed') {
    case 'pending':
      return { ...base, ...extra, state: 'pending' };
    case 'running':
      return { ...base, ...extra, state: 'running' };
    case 'error':
      return { ...base, ...extra, ...attachments, state: 'error', error: text };
    case 'completed':
      return { ...base, ...extra, ...attachments, state: 'completed', output: text };
  }
}

export function assistant(...parts: AssistantMessage['parts']): AssistantMessage {
  return { role: 'assistant', parts };
}

export function summaryMessage(text = 'summary of earlier work'): AssistantMessage {
  return { role: 'assistant', parts: [{ type: 'text', text }], metadata: { summary: true } };
}

export function pivot(): Pivot {
  return {
    summary: 'what happened so far',
    summarizedThroughId: 'e0',
    firstKeptId: null,
    tokensBefore: 100,
    tokensAfter: 10,
    auto: true,
    summarizer: 'extractive',
    details: { filesRead: [], filesModified: [] },
    previousPivotId: null,
  };
}

export type LogItem = Message | { pivot: Pivot };

/** Entries e0, e1, ... in log order; `{ pivot }` items become compaction entries. */
export function log(items: LogItem[]): Entry[] {
  const out: Entry[] = [];
  items.forEach((item, seq) => {
    const place = { sessionId: 's', seq, parentId: out.at(-1)?.id ?? null, id: `e${seq}`, createdAt: seq };
    out.push(
      'pivot' in item
        ? buildCompactionEntry(item.pivot, place, estimator)
        : buildMessageEntry(item, place, estimator),
    );
  });
  return out;
}

/** Marks as "entryId#partIndex" strings, for readable assertions. */
export function marked(plan: { marks: { entryId: string; partIndex: number }[] }): string[] {
  return plan.marks.map((m) => `${m.entryId}#${m.partIndex}`);
}
