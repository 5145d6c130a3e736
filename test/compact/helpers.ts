import type { CompactionPlan } from '../../src/compact/plan.js';
import { buildCompactionEntry, buildLog } from '../../src/model/build.js';
import type { CompactionEntry, Entry, MessageEntry, PivotDetails } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';

export const estimator = heuristicEstimator();

export const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
export const marker = (instructions?: string): Message => ({
  role: 'user',
  parts: [{ type: 'compaction', auto: true, ...(instructions ? { instructions } : {}) }],
});
export const assistant = (text: string, ...tools: ToolPart[]): Message => ({
  role: 'assistant',
  parts: [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...tools],
});

let callSeq = 0;
export function tool(name: string, input: ToolPart['input'], output: ToolPart['input'] = 'ok'): ToolPart {
  return { type: 'tool', callId: `c${++callSeq}`, name, input, state: 'completed', output };
}
export function failedTool(name: string, input: ToolPart['input'], error: string): ToolPart {
  return { type: 'tool', callId: `c${++callSeq}`, name, input, state: 'error', error };
}

/** Entries with ids e<seq>; `tokens` overrides each entry's estimate when given. */
export function entries(messages: Message[], startSeq = 0, tokens?: number[]): MessageEntry[] {
  const log = buildLog(messages, estimator, 'test', startSeq);
  if (tokens) {
    for (const [i, e] of log.entries()) e.tokens = tokens[i] ?? e.tokens;
  }
  return log;
}

/** A log builder that appends messages and pivots the way a session does. */
export class TestLog {
  readonly all: Entry[] = [];
  append(messages: Message[], tokens?: number[]): MessageEntry[] {
    const added = entries(messages, this.all.length, tokens);
    if (added[0] && this.all.length > 0) added[0].parentId = this.all.at(-1)!.id;
    this.all.push(...added);
    return added;
  }
  /** Appends the pivot for `plan` at the end of the log (the view skips it). */
  pivot(plan: CompactionPlan, summary: string, details?: PivotDetails, summarizer = 'test'): CompactionEntry {
    const seq = this.all.length;
    const entry = buildCompactionEntry(
      {
        summary,
        summarizedThroughId: plan.summarizedThroughId,
        firstKeptId: plan.firstKeptId,
        tokensBefore: plan.tokensBefore,
        tokensAfter: plan.predictedTailTokens,
        auto: true,
        summarizer,
        details: details ?? { filesRead: [], filesModified: [] },
        previousPivotId: plan.previousPivot?.id ?? null,
      },
      { sessionId: 'test', seq, parentId: this.all.at(-1)?.id ?? null, id: `p${seq}` },
      estimator,
    );
    this.all.push(entry);
    return entry;
  }
}

export const ids = (list: readonly Entry[]) => list.map((e) => e.id);
