import { isMarkerOnly } from '../compact/turns.js';
import type { CompactionEntry, Entry, MessageEntry } from '../model/entry.js';
import { isSummaryMessage } from '../model/message.js';
import { reportedUsage } from '../model/reported-usage.js';
import { emptySessionState, type SessionState } from '../model/session.js';
import { afterAppend, afterPivot, afterReplace, afterUsage, nextPromptEstimate } from '../session/state.js';
import type { Estimator } from '../tokens/estimator.js';

/**
 * The prompt size of every model request over a session's life, replayed from its log. A request
 * is an assistant reply (condense's own summary and filler messages aside). Its size is the usage
 * the provider reported for it where the reply keeps one, else what condense would have estimated
 * just before sending it: the same running figures a live session keeps (last reported prompt +
 * calibrated estimate of what came since), with pruned tool outputs at full size until the prune
 * that hid them (their mark's time) and at the placeholder's size after.
 */
export interface Series {
  /** Per request, in log order: the reply's seq, its time, the prompt tokens, reported or estimated. */
  seq: number[];
  at: number[];
  tokens: number[];
  reported: boolean[];
  /** Each compaction, before the request at index `x`. */
  compactions: { id: string; x: number }[];
  /** Each prune (the tool outputs marked at one time), before the request at index `x`. */
  prunes: PruneMark[];
}

export interface PruneMark {
  x: number;
  at: number;
  parts: number;
  /** Estimated tokens the placeholders saved (negative where they were longer than the outputs). */
  saved: number;
}

export interface SeriesInput {
  /** The whole log in seq order. */
  log: readonly Entry[];
  model: string;
  /** Raw tokens of the system prompt and tool definitions the session sends. */
  overheadRaw: number;
  /** The session's estimator: measures a pruned output's size before its prune. */
  estimator: Estimator;
  /** Seed 003's plain local estimate (no calibration, no overhead). */
  local?: boolean;
}

interface Prune {
  at: number;
  /** Positions in the log and the tokens each entry got back when its parts were shown again. */
  entries: { index: number; delta: number }[];
  parts: number;
}

/** What each prune hid, grouped by the time of its marks (one prune run marks with one time). */
function prunesOf(log: readonly Entry[], estimator: Estimator): { prunes: Prune[]; full: number[] } {
  const byTime = new Map<number, Prune>();
  const full = log.map((entry) => entry.tokens);
  log.forEach((entry, index) => {
    if (entry.kind !== 'message') return;
    entry.message.parts.forEach((part, p) => {
      if (part.type !== 'tool' || part.compactedAt === undefined) return;
      // Signed: a placeholder longer than a short output made the entry bigger.
      const delta = estimator.part(part) - (entry.partTokens[p] ?? 0);
      const prune = byTime.get(part.compactedAt) ?? { at: part.compactedAt, entries: [], parts: 0 };
      byTime.set(part.compactedAt, prune);
      prune.parts++;
      prune.entries.push({ index, delta });
      full[index]! += delta;
    });
  });
  return { prunes: [...byTime.values()].sort((a, b) => a.at - b.at), full };
}

const withTokens = (entry: Entry, tokens: number): Entry => ({ ...entry, tokens });

export function requestSeries({ log, model, overheadRaw, estimator, local = false }: SeriesInput): Series {
  const { prunes, full } = prunesOf(log, estimator);
  const current = [...full];
  const indexOf = new Map<string, number>();
  const out: Series = { seq: [], at: [], tokens: [], reported: [], compactions: [], prunes: [] };
  let state: SessionState = emptySessionState();
  let next = 0;
  const applyPrunesBefore = (time: number) => {
    for (; next < prunes.length && prunes[next]!.at < time; next++) {
      const prune = prunes[next]!;
      let saved = 0;
      for (const { index, delta } of prune.entries) {
        current[index]! -= delta;
        // Only what the view still held shrinks the prompt (erase-mode prunes reach older entries).
        if (log[index]!.seq < state.activeFromSeq) continue;
        saved += delta;
        const entry = log[index]!;
        state = afterReplace(
          state,
          [withTokens(entry, current[index]! + delta)],
          [withTokens(entry, current[index]!)],
        );
      }
      out.prunes.push({ x: out.seq.length, at: prune.at, parts: prune.parts, saved });
    }
  };
  log.forEach((entry, index) => {
    indexOf.set(entry.id, index);
    applyPrunesBefore(entry.createdAt);
    if (entry.kind === 'compaction') {
      state = pivotState(state, entry, log, indexOf, current);
      out.compactions.push({ id: entry.id, x: out.seq.length });
      return;
    }
    const request = isRequest(entry);
    const before = request ? nextPromptEstimate(state, model, overheadRaw, local).tokens : 0;
    const logRaw = state.activeTokens;
    state = afterAppend(state, [withTokens(entry, current[index]!)]);
    if (!request) return;
    const usage = reportedUsage(entry.message);
    if (usage) state = afterUsage(state, usage, model, { logRaw, overheadRaw }, entry.seq);
    out.seq.push(entry.seq);
    out.at.push(entry.createdAt);
    out.tokens.push(usage ? usage.inputTotal : before);
    out.reported.push(usage !== undefined);
  });
  applyPrunesBefore(Number.POSITIVE_INFINITY);
  return out;
}

/** An assistant reply to a request: not a summary message nor a filler condense wrote. */
function isRequest(entry: MessageEntry): boolean {
  const { message } = entry;
  return message.role === 'assistant' && !isSummaryMessage(message) && message.metadata?.synthetic !== true;
}

/** The running figures after a pivot: its summary plus the kept entries, at their size then. */
function pivotState(
  state: SessionState,
  pivot: CompactionEntry,
  log: readonly Entry[],
  indexOf: Map<string, number>,
  current: number[],
): SessionState {
  const keptAt = pivot.pivot.firstKeptId === null ? undefined : indexOf.get(pivot.pivot.firstKeptId);
  const from = keptAt ?? indexOf.get(pivot.id)!;
  const visible: Entry[] = [];
  for (let i = from; i < indexOf.get(pivot.id)!; i++) {
    const e = log[i]!;
    if (e.kind === 'message' && !isMarkerOnly(e) && e.id !== pivot.pivot.markerId)
      visible.push(withTokens(e, current[i]!));
  }
  return afterPivot(state, pivot, visible, log[from]!.seq);
}
