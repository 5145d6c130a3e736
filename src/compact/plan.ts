import { type CompactionEntry, type Entry, isMessageEntry, type MessageEntry } from '../model/entry.js';
import { messageText } from '../model/message.js';
import { latestRequestAt, requestText } from './requests.js';
import { activeWindow, isMarkerOnly, isTurnStart, latestPivot, sumTokens, turnRanges } from './turns.js';

export interface PlanOptions {
  /** How many of the newest user turns to keep verbatim (default 2). */
  keepTurns?: number;
  /** Token cap on the kept tail (default 30,000, Nexus's keepTokens). */
  keepTokens?: number;
  /** Keep at least the latest user turn, split at a step boundary if too big (true by default; false keeps only whole turns). */
  minKeepLatestTurn?: boolean;
  /** Summarize everything, keep no tail (Qwery, opencode, Pegasus and Mistral Vibe). */
  keepNone?: boolean;
  /**
   * When nothing precedes the turns the tail would keep (every turn fits it, or the conversation
   * is a single turn with no summary before it): true (default) summarizes anyway so that a
   * compaction asked for makes progress; false finds nothing to summarize (Nexus: it "summarizes
   * prior conversation", and an empty `toSummarize` is no compaction).
   */
  forceProgress?: boolean;
  /**
   * Compact a window that holds no message (default false: nothing to compact). The summary then
   * stands for the previous one, or for nothing but the summary call's own prompt: Mistral Vibe
   * compacts `[system]` alone into `[system, user(summary)]`.
   */
  summarizeEmpty?: boolean;
}

export const DEFAULT_PLAN_OPTIONS: Required<PlanOptions> = {
  keepTurns: 2,
  keepTokens: 30_000,
  minKeepLatestTurn: true,
  keepNone: false,
  forceProgress: true,
  summarizeEmpty: false,
};

export interface CompactionPlan {
  /** Message entries the summary replaces, in log order (previous kept tail first). */
  toSummarize: MessageEntry[];
  /** Message entries the view keeps verbatim after the summary. */
  toKeep: MessageEntry[];
  /** The pivot whose summary is summarized again (recursive, Nexus), if any. */
  previousPivot: CompactionEntry | null;
  summarizedThroughId: string;
  firstKeptId: string | null;
  /** Tokens of the current view: previous summary + every message entry of the window. */
  tokensBefore: number;
  /** Tokens of `toKeep`. */
  predictedTailTokens: number;
  /** The opener of the latest user turn when it is summarized: it must reach the model verbatim. */
  replayRequest?: string;
  /** The user's newest request in the window, else the one the previous pivot recorded. */
  latestUserRequest?: string;
  /** The newest request's message is in the kept tail, so the model sees it there verbatim. */
  requestInTail: boolean;
}

export interface NothingToCompact {
  nothing: true;
  reason: string;
}

export function isNothingToCompact(x: CompactionPlan | NothingToCompact): x is NothingToCompact {
  return 'nothing' in x;
}

type Cut = { index: number } | NothingToCompact;

/**
 * Chooses what to summarize and what to keep. `entries` is the active window (or the whole log:
 * it is windowed here) in seq order. Pure; cuts fall between entries, so a tool call and its
 * result (one part) are never separated.
 */
export function planCompaction(
  entries: readonly Entry[],
  options: PlanOptions = {},
): CompactionPlan | NothingToCompact {
  const o = { ...DEFAULT_PLAN_OPTIONS, ...options };
  const window = activeWindow(entries);
  const previousPivot = latestPivot(window);
  const messages = window.filter(isMessageEntry).filter((e) => !isMarkerOnly(e));
  if (messages.length === 0) {
    if (!o.summarizeEmpty) return { nothing: true, reason: 'no messages since the last compaction' };
    return emptySpanPlan(previousPivot);
  }

  if (!o.forceProgress && previousPivot === null && turnRanges(messages).length === 1)
    return { nothing: true, reason: 'the conversation is one turn; nothing before it to summarize' };
  // Layouts that keep nothing summarize waiting calls too (Mistral Vibe fills in their results).
  const chosen = o.keepNone ? { index: messages.length } : chooseCut(messages, o);
  if ('nothing' in chosen) return chosen;
  const cut = o.keepNone ? chosen : { index: beforeWaitingCall(messages, chosen.index, o.keepTokens) };
  const toSummarize = messages.slice(0, cut.index);
  const toKeep = messages.slice(cut.index);
  if (toSummarize.length === 0) return { nothing: true, reason: 'every message is in the kept tail' };

  // The request the user typed last: meta lines, command echoes and notifications are not one.
  const requestAt = latestRequestAt(messages);
  const latestUserRequest =
    requestAt >= 0 ? requestText(messages[requestAt]!) : previousPivot?.pivot.details.lastUserRequest;
  const plan: CompactionPlan = {
    toSummarize,
    toKeep,
    previousPivot,
    summarizedThroughId: toSummarize.at(-1)!.id,
    firstKeptId: toKeep[0]?.id ?? null,
    tokensBefore: (previousPivot?.tokens ?? 0) + sumTokens(messages),
    predictedTailTokens: sumTokens(toKeep),
    requestInTail: requestAt >= cut.index,
  };
  if (latestUserRequest !== undefined) plan.latestUserRequest = latestUserRequest;
  const openerAt = latestOpenerIndex(messages);
  if (openerAt >= 0 && openerAt < cut.index) plan.replayRequest = messageText(messages[openerAt]!.message);
  return plan;
}

/**
 * A compaction of no message (`summarizeEmpty`): through the previous pivot, else through the
 * pivot about to be written (an empty `summarizedThroughId`, filled in when it is).
 */
function emptySpanPlan(previousPivot: CompactionEntry | null): CompactionPlan {
  const plan: CompactionPlan = {
    toSummarize: [],
    toKeep: [],
    previousPivot,
    summarizedThroughId: previousPivot?.id ?? '',
    firstKeptId: null,
    tokensBefore: previousPivot?.tokens ?? 0,
    predictedTailTokens: 0,
    requestInTail: false,
  };
  const last = previousPivot?.pivot.details.lastUserRequest;
  if (last !== undefined) plan.latestUserRequest = last;
  return plan;
}

/** Room a waiting call may add to the kept tail: up to this many times the tail's cap. */
const WAITING_TAIL_FACTOR = 2;

/**
 * A cut that would summarize a tool call still waiting for its result moves to just before it:
 * the result, recorded later by this worker or another, must find its call in the view (a
 * summary would describe it as interrupted, and the result would have nowhere to go). Only
 * within twice the tail's cap, and never so far that nothing is left to summarize: a call
 * abandoned long ago must not stop compaction for good.
 */
function beforeWaitingCall(messages: readonly MessageEntry[], index: number, keepTokens: number): number {
  let cut = index;
  let tail = sumTokens(messages, index);
  for (let i = index - 1; i > 0; i--) {
    tail += messages[i]!.tokens;
    if (tail > WAITING_TAIL_FACTOR * keepTokens) break;
    if (hasWaitingCall(messages[i]!)) cut = i;
  }
  return cut;
}

function hasWaitingCall(entry: MessageEntry): boolean {
  return entry.message.parts.some(
    (p) => p.type === 'tool' && (p.state === 'pending' || p.state === 'running'),
  );
}

function latestOpenerIndex(messages: readonly MessageEntry[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (isTurnStart(messages[i]!)) return i;
  return -1;
}

/** Index of the first kept message: whole turns newest first within both caps. */
function chooseCut(messages: readonly MessageEntry[], o: Required<PlanOptions>): Cut {
  const turns = turnRanges(messages);
  let index = messages.length;
  let kept = 0;
  let tokens = 0;
  for (let t = turns.length - 1; t >= 0 && kept < o.keepTurns; t--) {
    const { start, end } = turns[t]!;
    const size = sumTokens(messages, start, end);
    if (tokens + size > o.keepTokens) break;
    tokens += size;
    kept++;
    index = start;
  }
  if (kept === 0) {
    return {
      index: o.minKeepLatestTurn ? splitTurn(messages, turns.at(-1)!, o.keepTokens) : messages.length,
    };
  }
  if (index > 0) return { index };
  if (!o.forceProgress) {
    return {
      nothing: true,
      reason: `every turn fits keepTokens ${o.keepTokens} (${tokens} tokens); nothing older to summarize`,
    };
  }
  // Everything fits the tail, yet a compaction was asked for: summarize the oldest kept turn so
  // that the call makes progress (at least one turn summarized).
  if (kept > 1) return { index: turns[turns.length - kept + 1]!.start };
  if (!o.minKeepLatestTurn) return { index: messages.length };
  return {
    nothing: true,
    reason: `the window holds only the latest turn (${tokens} tokens ≤ keepTokens ${o.keepTokens}); nothing older to summarize`,
  };
}

/**
 * The latest turn alone is over the cap: keep its newest steps that fit, summarize its beginning
 * (the opener is then replayed verbatim). A lone user message is the floor and is kept whole.
 */
function splitTurn(
  messages: readonly MessageEntry[],
  turn: { start: number; end: number },
  keepTokens: number,
): number {
  if (turn.end - turn.start === 1) return turn.start;
  let tokens = 0;
  let index = turn.end;
  for (let c = turn.end - 1; c > turn.start; c--) {
    tokens += messages[c]!.tokens;
    if (tokens > keepTokens) break;
    index = c;
  }
  return index;
}
