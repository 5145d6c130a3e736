import { type Entry, isMessageEntry, latestPivot, type MessageEntry } from '../model/entry.js';
import type { AssistantMessage, Message, UserMessage } from '../model/message.js';
import { type AssistantPart, type ToolPart, type UserPart, withPlaceholderOutput } from '../model/parts.js';
import { DEFAULT_MARKER_QUESTION, type SummaryLayout, summaryMessages } from './summary.js';

export const DEFAULT_PRUNED_PLACEHOLDER = '[Old tool result content cleared]';

export interface ViewOptions {
  /** The agent's system prompt; first message of the view when given. */
  system?: string;
  /** Where the pivot's summary goes (default `user`). */
  summaryAs?: SummaryLayout;
  /** Stands for the output of a pruned tool part (seed 001 §5.2). */
  prunedPlaceholder?: string;
  /** Text of a compaction marker when shown to a model (seed 001 §6.3). */
  markerQuestion?: string;
  /** Drop compaction markers not yet answered by a pivot (default true); false shows them as the question. */
  dropPendingMarkers?: boolean;
}

interface ResolvedView {
  system: string | undefined;
  summaryAs: SummaryLayout;
  placeholder: string;
  markerQuestion: string;
  dropPendingMarkers: boolean;
}

function resolve(opts: ViewOptions): ResolvedView {
  return {
    system: opts.system,
    summaryAs: opts.summaryAs ?? 'user',
    placeholder: opts.prunedPlaceholder ?? DEFAULT_PRUNED_PLACEHOLDER,
    markerQuestion: opts.markerQuestion ?? DEFAULT_MARKER_QUESTION,
    dropPendingMarkers: opts.dropPendingMarkers ?? true,
  };
}

/**
 * What the model sees of a session: system prompt, the latest pivot's summary, then the kept and
 * newer messages (seed 001 §4.4, seed 002 "Context Assembly", A002-06). `entries` may hold older
 * entries too; the latest compaction entry among them decides where the view starts.
 */
export function buildView(entries: Entry[], opts: ViewOptions = {}): Message[] {
  const o = resolve(opts);
  const ordered = inSeqOrder(entries);
  const pivotEntry = latestPivot(ordered) ?? undefined;
  const out: Message[] = [];
  if (o.system !== undefined && o.system !== '') {
    out.push({ role: 'system', parts: [{ type: 'text', text: o.system }] });
  }
  let selected: MessageEntry[] = ordered.filter(isMessageEntry);
  if (pivotEntry !== undefined) {
    const { pivot } = pivotEntry;
    const fromSeq = pivot.firstKeptId === null ? pivotEntry.seq + 1 : seqOf(ordered, pivot.firstKeptId);
    selected = selected.filter((e) => e.seq >= fromSeq && e.id !== pivot.markerId);
    out.push(...summaryMessages(pivot.summary, o.summaryAs, o.markerQuestion));
  }
  for (const entry of selected) {
    const message = viewMessage(entry.message, o);
    if (message !== null) out.push(message);
  }
  return out;
}

function inSeqOrder(entries: Entry[]): Entry[] {
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.seq < entries[i - 1]!.seq) return [...entries].sort((a, b) => a.seq - b.seq);
  }
  return entries;
}

function seqOf(ordered: Entry[], id: string): number {
  const found = ordered.find((e) => e.id === id);
  // A silent fallback would drop the kept tail without a word; the caller loaded too little.
  if (found === undefined)
    throw new Error(`buildView: the pivot's first kept entry ${id} is not among the entries`);
  return found.seq;
}

function viewMessage(message: Message, o: ResolvedView): Message | null {
  switch (message.role) {
    case 'system':
      return message;
    case 'user':
      return viewUser(message, o);
    case 'assistant':
      return failedStep(message) ? null : viewAssistant(message, o);
  }
}

/**
 * A step that ended in error is not shown unless it holds finished tool calls, whose results the
 * model must still see (A001-15: a half-written summary or answer is never taken as content).
 */
function failedStep(message: AssistantMessage): boolean {
  const error = message.metadata?.error;
  if (error === undefined || error === null || error === false) return false;
  if (message.metadata?.summary === true) return true;
  return !message.parts.some((p) => p.type === 'tool' && (p.state === 'completed' || p.state === 'error'));
}

function viewUser(message: UserMessage, o: ResolvedView): UserMessage {
  if (!message.parts.some((p) => p.type === 'compaction-marker')) return message;
  const parts: UserPart[] = [];
  for (const part of message.parts) {
    if (part.type !== 'compaction-marker') parts.push(part);
    else if (!o.dropPendingMarkers) parts.push({ type: 'text', text: o.markerQuestion, synthetic: true });
  }
  return { ...message, parts };
}

function viewAssistant(message: AssistantMessage, o: ResolvedView): AssistantMessage {
  if (!message.parts.some((p) => p.type === 'tool' && p.compactedAt !== undefined)) return message;
  const parts: AssistantPart[] = message.parts.map((p) =>
    p.type === 'tool' ? prunedView(p, o.placeholder) : p,
  );
  return { ...message, parts };
}

/** A pruned part keeps its call; its output becomes the placeholder and attachments go (seed 001 §5.2). */
function prunedView(part: ToolPart, placeholder: string): ToolPart {
  return part.compactedAt === undefined ? part : withPlaceholderOutput(part, placeholder);
}
