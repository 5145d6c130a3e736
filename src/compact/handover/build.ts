import type { MessageEntry, PivotDetails } from '../../model/entry.js';
import { extractConstraints, extractDecisions, mergeBounded } from '../facts.js';
import { analyzeSpan, type SpanAnalysis } from '../span.js';
import {
  bothEnds,
  capText,
  HANDOVER_LIMITS,
  listed,
  MESSAGE_PLAN,
  mergeCommands,
  mergeFiles,
  mergePending,
  TRACKER_SOURCES,
} from './merge.js';
import { closingSentence, statedNextAction } from './next-step.js';
import { carriedHandover, handoverDetails, hasCarriedWork, hasHandover, splitFailure } from './store.js';
import type { CurrentTask, Handover, NextStep, PendingItem } from './types.js';
import { mergeValues } from './values.js';

export { capText, HANDOVER_LIMITS } from './merge.js';

/** What a handover is built from: the summarized span and what the previous pivot carried. */
export interface HandoverInput {
  /** The entries the summary replaces, in log order. */
  span: readonly MessageEntry[];
  /** The previous pivot's details: its handover, merged with the span's. */
  previous?: PivotDetails;
  /** The user's latest request in the window (the plan's `latestUserRequest`). */
  latestRequest?: string;
  /** The latest request's message is in the kept tail. */
  requestInTail?: boolean;
  /** The messages kept verbatim after the summary: a success there settles a failure of the span. */
  tail?: readonly MessageEntry[];
  /**
   * The branch's messages before the span that `previous` does not carry (the history behind an
   * imported compaction, or a pivot written before the handover existed): read for their facts.
   */
  earlier?: readonly MessageEntry[];
  /** analyzeSpan(span, previous), when already made. */
  analysis?: SpanAnalysis;
}

function currentTask(carried: Handover, a: SpanAnalysis, input: HandoverInput): CurrentTask | undefined {
  const request = input.latestRequest ?? carried.currentTask?.request ?? a.userTexts.at(-1);
  if (request === undefined || request.trim() === '') return undefined;
  if (input.requestInTail) return { request, inTail: true, done: [], otherCalls: 0 };
  // The span holds the request: what followed it. Otherwise the span continued the carried task.
  const here = a.lastRequestAt >= 0 && a.userTexts.at(-1) === request;
  const since = here ? a.lastRequestAt : -1;
  const done = here ? [] : [...(carried.currentTask?.done ?? [])];
  if (a.modifiedSinceRequest.length > 0) done.push(`changed ${a.modifiedSinceRequest.join(', ')}`);
  let shown = 0;
  for (const o of a.outcomes) {
    if (o.order < since || !o.shell || !listed(o.kind, o.status)) continue;
    const status = o.status === 'fixed' ? 'failed, then fixed' : o.status === 'failed' ? 'failed' : 'ok';
    done.push(`ran \`${o.label}\` (${status})`);
    shown++;
  }
  const otherCalls =
    (here ? 0 : (carried.currentTask?.otherCalls ?? 0)) + Math.max(0, a.callsSinceRequest - shown);
  return { request, inTail: false, done: done.slice(-HANDOVER_LIMITS.done), otherCalls };
}

function nextStep(
  carried: Handover,
  a: SpanAnalysis,
  task: CurrentTask | undefined,
  pending: PendingItem[],
): NextStep | undefined {
  if (task?.inTail) return { text: task.request, source: 'request' };
  const active = pending.find((p) => p.status === 'in_progress');
  if (active) return { text: active.text, source: TRACKER_SOURCES.has(active.source) ? 'tracker' : 'todo' };
  // The span ends inside a turn (the agent's last message made calls): the task goes on.
  const midTurn = a.lastAssistantAt > a.lastRequestAt && a.lastActions.length > 0;
  if (midTurn && task) return { text: task.request, source: 'request' };
  // The agent's last reply closed its turn after the latest request: what it said comes next.
  const replied = a.lastAssistantAt > a.lastRequestAt && a.lastAssistant !== '';
  const stated = replied ? statedNextAction(a.lastAssistant) : undefined;
  if (stated) return { text: stated.text, source: 'agent' };
  const first = pending[0];
  if (first) return { text: first.text, source: pendingSource(first) };
  if (task && a.lastRequestAt >= 0 && a.lastAssistantAt < a.lastRequestAt)
    return { text: task.request, source: 'request' };
  const closing = replied ? closingSentence(a.lastAssistant) : undefined;
  if (closing) return { text: closing, source: 'reply' };
  // Nothing in the span says: what an earlier summary said, else the task itself.
  if (a.lastAssistantAt < 0 && a.lastRequestAt < 0 && carried.nextStep) return carried.nextStep;
  return task ? { text: task.request, source: 'request' } : carried.nextStep;
}

function pendingSource(p: PendingItem): NextStep['source'] {
  if (p.source === MESSAGE_PLAN || p.source.startsWith('plan in ')) return 'plan';
  return TRACKER_SOURCES.has(p.source) ? 'tracker' : 'todo';
}

/** The earlier history's facts, as a previous pivot would have carried them. */
function previousDetails(input: HandoverInput): PivotDetails | undefined {
  const { earlier, previous } = input;
  if (earlier === undefined || earlier.length === 0 || hasHandover(previous)) return previous;
  const built = buildHandover({ span: earlier });
  const details = handoverDetails(built);
  return { ...details, extra: { ...previous?.extra, ...details.extra } };
}

/**
 * The handover of a compaction: the facts of the summarized span merged with those the previous
 * pivot carried, so that they survive any number of compactions. Pure and deterministic.
 */
export function buildHandover(input: HandoverInput): Handover {
  const previous = previousDetails(input);
  const carried = carriedHandover(previous);
  const a = input.analysis ?? analyzeSpan(input.span, previous, input.tail);
  const files = mergeFiles(carried, previous, a);
  const { commands, other } = mergeCommands(carried, a);
  const pending = mergePending(carried, a);
  const task = currentTask(carried, a, input);
  const texts = a.userTexts;
  const interrupted = [
    ...carried.interrupted,
    ...a.rejected.map((l) => `${l} (rejected or interrupted)`),
    ...a.pendingCalls.map((l) => `${l} (no result: interrupted)`),
  ];
  return {
    ...(a.base.cwd === undefined ? {} : { cwd: a.base.cwd }),
    requests: bothEnds(
      [...carried.requests, ...texts.map((t) => ({ text: capText(t, HANDOVER_LIMITS.requestChars) }))],
      HANDOVER_LIMITS.requests,
      HANDOVER_LIMITS.oldestRequests,
    ),
    ...(task ? { currentTask: task } : {}),
    constraints: mergeBounded(
      [carried.constraints, texts.flatMap(extractConstraints)],
      HANDOVER_LIMITS.constraints,
    ),
    decisions: mergeBounded([carried.decisions, texts.flatMap(extractDecisions)], HANDOVER_LIMITS.decisions),
    pending,
    ...withNext(nextStep(carried, a, task, pending)),
    openFailures: a.outcomes
      .filter((o) => o.status === 'failed')
      .map((o) => splitFailure(`${o.label} → ${o.error ?? 'failed'}`))
      .slice(-HANDOVER_LIMITS.failures),
    interrupted: interrupted.slice(-HANDOVER_LIMITS.interrupted),
    commands,
    otherCommands: other,
    files: { modified: files.modified, read: files.readOnly },
    keyValues: mergeValues(carried.keyValues, a.values, HANDOVER_LIMITS.values),
    chat: a.toolCalls === 0 && !hasCarriedWork(previous),
  };
}

function withNext(next: NextStep | undefined): { nextStep?: NextStep } {
  return next ? { nextStep: next } : {};
}

/** The handover and the details to store for it (all files read, modified ones included, in `filesRead`). */
export function handoverAndDetails(input: HandoverInput): { handover: Handover; details: PivotDetails } {
  const previous = previousDetails(input);
  const analysis = input.analysis ?? analyzeSpan(input.span, previous, input.tail);
  const handover = buildHandover({ ...input, previous, analysis, earlier: [] });
  const { everyRead } = mergeFiles(carriedHandover(previous), previous, analysis);
  const details = handoverDetails(handover, everyRead);
  // Processes still running in the background: a later span's poll reports their end.
  const background = analysis.background.slice(-HANDOVER_LIMITS.background);
  if (background.length > 0) details.extra = { ...details.extra, background };
  return { handover, details };
}
