/**
 * A session's active window as the session's Log keeps it: appends push onto the same array,
 * every other change (prune marks, a completed call, a pivot, a reload) makes a new array.
 */
import fc from 'fast-check';
import type { ViewOptions } from '../../../src/context/index.js';
import { buildCompactionEntry, buildMessageEntry } from '../../../src/model/build.js';
import type { Entry, MessageEntry } from '../../../src/model/entry.js';
import type { Message } from '../../../src/model/message.js';
import type { Part, ToolPart } from '../../../src/model/parts.js';
import { heuristicEstimator } from '../../../src/tokens/estimator.js';
import { messageArb } from '../../support/arbitraries.js';

const estimator = heuristicEstimator();

/** View options other than the system prompt: every summary layout, markers shown or not. */
export const viewArb: fc.Arbitrary<Omit<ViewOptions, 'system'>> = fc.record(
  {
    summaryAs: fc.constantFrom(
      'user' as const,
      'assistant' as const,
      'system' as const,
      'question+assistant' as const,
    ),
    dropPendingMarkers: fc.boolean(),
    prunedPlaceholder: fc.constantFrom('[cleared]', '[Old tool result content cleared]'),
  },
  { requiredKeys: [] },
);

export type WindowOp =
  | { kind: 'append'; messages: Message[] }
  | { kind: 'prune'; picks: number[] }
  | { kind: 'finish'; pick: number; output: string }
  | { kind: 'compact'; keep: number; summary: string; withMarker: boolean }
  | { kind: 'reload' }
  | { kind: 'system'; text: string };

export const windowOpArb: fc.Arbitrary<WindowOp> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      messages: fc.array(messageArb, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('prune' as const),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('finish' as const),
      pick: fc.nat(),
      output: fc.string({ maxLength: 20 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      keep: fc.nat(),
      summary: fc.string({ minLength: 1, maxLength: 30 }),
      withMarker: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reload' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('system' as const),
      text: fc.constantFrom('', 'You are a coding agent.', 'Be brief.'),
    }),
  },
);

export class SimWindow {
  entries: Entry[] = [];
  system = 'You are a coding agent.';
  private seq = 0;
  private pivotId: string | null = null;
  private time = 1;

  apply(op: WindowOp): void {
    switch (op.kind) {
      case 'append':
        for (const m of op.messages) this.entries.push(this.message(m));
        return;
      case 'prune':
        this.replaceParts(
          this.toolParts((p) => isFinished(p) && p.compactedAt === undefined),
          op.picks,
          (p) => ({ ...p, compactedAt: this.time++ }),
        );
        return;
      case 'finish':
        this.replaceParts(
          this.toolParts((p) => !isFinished(p)),
          [op.pick],
          (p) => ({ ...p, state: 'completed', output: op.output }) as ToolPart,
        );
        return;
      case 'compact':
        this.compact(op.keep, op.summary, op.withMarker);
        return;
      case 'reload':
        this.entries = structuredClone(this.entries);
        return;
      case 'system':
        this.system = op.text;
        return;
    }
  }

  private message(message: Message): MessageEntry {
    const parentId = this.entries.at(-1)?.id ?? null;
    const seq = this.seq++;
    return buildMessageEntry(message, { sessionId: 's', seq, parentId, id: `e${seq}` }, estimator);
  }

  private toolParts(want: (p: ToolPart) => boolean): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    this.entries.forEach((e, i) => {
      if (e.kind !== 'message') return;
      e.message.parts.forEach((p, j) => {
        if (p.type === 'tool' && want(p)) found.push([i, j]);
      });
    });
    return found;
  }

  private replaceParts(
    found: Array<[number, number]>,
    picks: number[],
    change: (p: ToolPart) => ToolPart,
  ): void {
    if (found.length === 0) return;
    const next = [...this.entries];
    for (const pick of picks) {
      const [i, j] = found[pick % found.length]!;
      const entry = next[i] as MessageEntry;
      const parts: Part[] = [...entry.message.parts];
      parts[j] = change(parts[j] as ToolPart);
      const message = { ...entry.message, parts } as Message;
      next[i] = {
        ...entry,
        message,
        partTokens: parts.map((p) => estimator.part(p)),
        tokens: estimator.message(message),
      };
    }
    this.entries = next;
  }

  private compact(keep: number, summary: string, withMarker: boolean): void {
    const markerId = withMarker
      ? this.message({ role: 'user', parts: [{ type: 'compaction', auto: true }] })
      : null;
    if (markerId) this.entries.push(markerId);
    const messages = this.entries.filter(
      (e): e is MessageEntry => e.kind === 'message' && e.id !== markerId?.id,
    );
    if (messages.length === 0) return;
    const kept = keep % messages.length;
    const firstKept = kept === 0 ? null : messages[messages.length - kept]!;
    const through = messages[messages.length - kept - 1] ?? messages[0]!;
    const seq = this.seq++;
    const pivot = buildCompactionEntry(
      {
        summary,
        summarizedThroughId: through.id,
        firstKeptId: firstKept?.id ?? null,
        tokensBefore: 100,
        tokensAfter: 10,
        auto: true,
        summarizer: 'extractive',
        details: { filesRead: [], filesModified: [] },
        previousPivotId: this.pivotId,
        ...(markerId ? { markerId: markerId.id } : {}),
      },
      { sessionId: 's', seq, parentId: this.entries.at(-1)?.id ?? null, id: `p${seq}` },
      estimator,
    );
    this.pivotId = pivot.id;
    this.entries.push(pivot);
    const from = firstKept?.seq ?? pivot.seq;
    this.entries = this.entries.filter((e) => e.seq >= from);
  }
}

function isFinished(p: ToolPart): boolean {
  return p.state === 'completed' || p.state === 'error';
}
