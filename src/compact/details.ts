import type { MessageEntry, PivotDetails } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import { messageText } from '../model/message.js';
import {
  extractConstraints,
  mergeBounded,
  oneLine,
  thinEvenly,
  toolFailed,
  unresolvedFailures,
  userText,
} from './facts.js';
import { toolFiles } from './paths.js';
import type { CompactionPlan } from './plan.js';
import { turnRanges } from './turns.js';

const MAX_CONSTRAINTS = 40;
const MAX_FAILURES = 20;
const MAX_CARRIED_LINES = 200;
const CARRIED_REQUEST_CHARS = 300;

/** One turn of the summarized span, as the timeline shows it. */
export interface TurnDigest {
  request: string;
  tools: Map<string, { calls: number; failed: number }>;
  pending: number;
  outcome: string;
}

export function digestTurns(entries: readonly MessageEntry[]): TurnDigest[] {
  return turnRanges(entries).map(({ start, end }) => {
    const digest: TurnDigest = {
      request: userText(entries[start]!),
      tools: new Map(),
      pending: 0,
      outcome: '',
    };
    for (let i = start; i < end; i++) {
      const m = entries[i]!.message;
      if (m.role !== 'assistant') continue;
      const text = messageText(m).trim();
      if (text !== '') digest.outcome = text;
      for (const p of m.parts) {
        if (p.type !== 'tool') continue;
        const t = digest.tools.get(p.name) ?? { calls: 0, failed: 0 };
        t.calls++;
        if (toolFailed(p)) t.failed++;
        if (p.state === 'pending' || p.state === 'running') digest.pending++;
        digest.tools.set(p.name, t);
      }
    }
    return digest;
  });
}

/** "User: "…" → tools: bash×3 (1 failed) → "…"", each piece shortened to the given sizes. */
export function timelineLine(d: TurnDigest, requestChars: number, outcomeChars: number): string {
  const request = d.request === '' ? '(continued from before)' : `"${oneLine(d.request, requestChars)}"`;
  const tools = [...d.tools].map(
    ([name, t]) => `${name}×${t.calls}${t.failed > 0 ? ` (${t.failed} failed)` : ''}`,
  );
  const pieces = [`User: ${request}`];
  if (tools.length > 0) pieces.push(`tools: ${tools.join(', ')}`);
  if (d.pending > 0) pieces.push(`${d.pending} call(s) left without a result`);
  if (outcomeChars > 0 && d.outcome !== '') pieces.push(`"${oneLine(d.outcome, outcomeChars)}"`);
  return pieces.join(' → ');
}

/** Files read and modified in a span, in first-seen order. */
export function spanFiles(entries: readonly MessageEntry[]): { read: string[]; modified: string[] } {
  const read: string[] = [];
  const modified: string[] = [];
  for (const e of entries) {
    for (const p of e.message.parts) {
      if (p.type !== 'tool') continue;
      const files = toolFiles(p);
      read.push(...files.read);
      // A call that failed did not change the file: it only looked at it.
      (toolFailed(p) ? read : modified).push(...files.modified);
    }
  }
  return { read: [...new Set(read)], modified: [...new Set(modified)] };
}

/** Lines a previous pivot carried under `extra[key]` (requests, timeline). */
export function carriedLines(details: PivotDetails | undefined, key: 'requests' | 'timeline'): string[] {
  const v: JsonValue | undefined = details?.extra?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The facts a pivot carries structurally, merged with the previous pivot's so that they survive
 * any number of compactions whatever the summary text says.
 */
export function collectDetails(plan: CompactionPlan): PivotDetails {
  const prev = plan.previousPivot?.pivot.details;
  const span = plan.toSummarize;
  const files = spanFiles(span);
  const texts = span.map(userText).filter((t) => t.trim() !== '');
  const details: PivotDetails = {
    filesRead: [...new Set([...(prev?.filesRead ?? []), ...files.read])],
    filesModified: [...new Set([...(prev?.filesModified ?? []), ...files.modified])],
    failedCommands: unresolvedFailures(span, prev?.failedCommands).slice(-MAX_FAILURES),
    constraints: mergeBounded([prev?.constraints ?? [], texts.flatMap(extractConstraints)], MAX_CONSTRAINTS),
    extra: {
      requests: thinEvenly(
        [...carriedLines(prev, 'requests'), ...texts.map((t) => oneLine(t, CARRIED_REQUEST_CHARS))],
        MAX_CARRIED_LINES,
      ),
      timeline: thinEvenly(
        [...carriedLines(prev, 'timeline'), ...digestTurns(span).map((d) => timelineLine(d, 160, 200))],
        MAX_CARRIED_LINES,
      ),
    },
  };
  if (plan.latestUserRequest !== undefined) details.lastUserRequest = plan.latestUserRequest;
  return details;
}
