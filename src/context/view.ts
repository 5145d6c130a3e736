import {
  type CompactionEntry,
  type Entry,
  isMessageEntry,
  latestPivot,
  type MessageEntry,
} from '../model/entry.js';
import type { AssistantMessage, Message, UserMessage } from '../model/message.js';
import { type AssistantPart, type ToolPart, type UserPart, withPlaceholderOutput } from '../model/parts.js';
import { DEFAULT_MARKER_QUESTION, type SummaryLayout, summaryMessages } from './summary.js';

export const DEFAULT_PRUNED_PLACEHOLDER = '[Old tool result content cleared]';

export interface ViewOptions {
  /** The agent's system prompt; first message of the view when given. */
  system?: string;
  /** Where the pivot's summary goes (default `user`). */
  summaryAs?: SummaryLayout;
  /** Stands for the output of a pruned tool part (opencode). */
  prunedPlaceholder?: string;
  /** Text of a compaction marker when shown to a model (opencode). */
  markerQuestion?: string;
  /** Drop compaction markers not yet answered by a pivot (default true); false shows them as the question. */
  dropPendingMarkers?: boolean;
}

export interface ResolvedView {
  system: string | undefined;
  summaryAs: SummaryLayout;
  placeholder: string;
  markerQuestion: string;
  dropPendingMarkers: boolean;
}

export function resolveView(opts: ViewOptions): ResolvedView {
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
 * newer messages (opencode, Nexus "Context Assembly"). `entries` may hold older
 * entries too; the latest compaction entry among them decides where the view starts.
 */
export function buildView(entries: readonly Entry[], opts: ViewOptions = {}): Message[] {
  const o = resolveView(opts);
  const ordered = inSeqOrder(entries);
  const window = viewWindow(ordered);
  const out = headMessages(o, window.pivot);
  for (const entry of ordered) {
    if (!window.shows(entry)) continue;
    const message = viewMessage(entry.message, o);
    if (message !== null) out.push(message);
  }
  return out;
}

/** Where the view starts: the latest pivot, and which message entries it shows. */
export interface ViewWindow {
  pivot: CompactionEntry | null;
  shows(entry: Entry): entry is MessageEntry;
}

export function viewWindow(ordered: readonly Entry[]): ViewWindow {
  const pivotEntry = latestPivot(ordered);
  if (pivotEntry === null) return { pivot: null, shows: isMessageEntry };
  const { pivot } = pivotEntry;
  const fromSeq = pivot.firstKeptId === null ? pivotEntry.seq + 1 : seqOf(ordered, pivot.firstKeptId);
  return {
    pivot: pivotEntry,
    shows: (e): e is MessageEntry => e.kind === 'message' && e.seq >= fromSeq && e.id !== pivot.markerId,
  };
}

/** The system prompt, then the pivot's summary messages: what comes before any entry. */
export function headMessages(o: ResolvedView, pivotEntry: CompactionEntry | null): Message[] {
  const out: Message[] = [];
  if (o.system !== undefined && o.system !== '') {
    out.push({ role: 'system', parts: [{ type: 'text', text: o.system }] });
  }
  if (pivotEntry !== null) {
    const { pivot } = pivotEntry;
    for (const m of summaryMessages(pivot.summary, pivot.summaryAs ?? o.summaryAs, o.markerQuestion))
      out.push(m);
  }
  return out;
}

export function inSeqOrder(entries: readonly Entry[]): readonly Entry[] {
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.seq < entries[i - 1]!.seq) return [...entries].sort((a, b) => a.seq - b.seq);
  }
  return entries;
}

function seqOf(ordered: readonly Entry[], id: string): number {
  const found = ordered.find((e) => e.id === id);
  // A silent fallback would drop the kept tail without a word; the caller loaded too little.
  if (found === undefined)
    throw new Error(`buildView: the pivot's first kept entry ${id} is not among the entries`);
  return found.seq;
}

/** One stored message as the model sees it (null: not shown), before any provider repair. */
export function viewMessage(message: Message, o: ResolvedView): Message | null {
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
 * model must still see (a half-written summary or answer is never taken as content).
 */
function failedStep(message: AssistantMessage): boolean {
  const error = message.metadata?.error;
  if (error === undefined || error === null || error === false) return false;
  if (message.metadata?.summary === true) return true;
  return !message.parts.some((p) => p.type === 'tool' && (p.state === 'completed' || p.state === 'error'));
}

/** A queued compaction task is shown as the marker question, or not at all (nothing else left: no message). */
function viewUser(message: UserMessage, o: ResolvedView): UserMessage | null {
  if (!message.parts.some((p) => p.type === 'compaction')) return message;
  const parts: UserPart[] = [];
  for (const part of message.parts) {
    if (part.type !== 'compaction') parts.push(part);
    else if (!o.dropPendingMarkers) parts.push({ type: 'text', text: o.markerQuestion, synthetic: true });
  }
  return parts.length === 0 ? null : { ...message, parts };
}

function viewAssistant(message: AssistantMessage, o: ResolvedView): AssistantMessage {
  if (!message.parts.some((p) => p.type === 'tool' && p.compactedAt !== undefined)) return message;
  const parts: AssistantPart[] = message.parts.map((p) =>
    p.type === 'tool' ? prunedView(p, o.placeholder) : p,
  );
  return { ...message, parts };
}

/** A pruned part keeps its call; its output becomes the placeholder and attachments go (opencode). */
function prunedView(part: ToolPart, placeholder: string): ToolPart {
  return part.compactedAt === undefined ? part : withPlaceholderOutput(part, placeholder);
}
