import type { PivotDetails } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import { evenIndices, extractConstraints, mergeBounded, oneLine } from './facts.js';
import type { CompactionPlan } from './plan.js';
import { analyzeSpan, type SpanAnalysis, type TurnDigest, unresolvedAfter } from './span.js';

const MAX_CONSTRAINTS = 40;
const MAX_FAILURES = 20;
const MAX_CARRIED_LINES = 200;
const CARRIED_REQUEST_CHARS = 300;

/** "User: "…" → tools: bash×3 (1 failed) → "…"", each piece shortened to the given sizes. */
export function timelineLine(d: TurnDigest, requestChars: number, outcomeChars: number): string {
  const request = d.request === '' ? '(same request, continued)' : `"${oneLine(d.request, requestChars)}"`;
  const tools = [...d.tools].map(
    ([name, t]) => `${name}×${t.calls}${t.failed > 0 ? ` (${t.failed} failed)` : ''}`,
  );
  const pieces = [`User: ${request}`];
  if (tools.length > 0) pieces.push(`tools: ${tools.join(', ')}`);
  if (d.pending > 0) pieces.push(`${d.pending} call(s) left without a result`);
  if (outcomeChars > 0 && d.outcome !== '') pieces.push(`"${oneLine(d.outcome, outcomeChars)}"`);
  return pieces.join(' → ');
}

/** Lines a previous pivot carried under `extra[key]` (requests, timeline). */
export function carriedLines(details: PivotDetails | undefined, key: 'requests' | 'timeline'): string[] {
  const v: JsonValue | undefined = details?.extra?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Up to `max` lines spread over carried + new, formatting only the lines kept. */
function carryLines<T>(
  carried: string[],
  fresh: readonly T[],
  format: (item: T) => string,
  max: number,
): string[] {
  return evenIndices(carried.length + fresh.length, max).map((i) =>
    i < carried.length ? carried[i]! : format(fresh[i - carried.length]!),
  );
}

/**
 * The facts a pivot carries structurally, merged with the previous pivot's so that they survive
 * any number of compactions whatever the summary text says. Pass `analysis` when already made.
 */
export function collectDetails(
  plan: CompactionPlan,
  analysis: SpanAnalysis = analyzeSpan(plan.toSummarize),
): PivotDetails {
  const prev = plan.previousPivot?.pivot.details;
  const files = [...analysis.files.values()];
  const texts = analysis.userTexts;
  const details: PivotDetails = {
    filesRead: [...new Set([...(prev?.filesRead ?? []), ...files.filter((f) => f.read).map((f) => f.path)])],
    filesModified: [
      ...new Set([...(prev?.filesModified ?? []), ...files.filter((f) => f.modified).map((f) => f.path)]),
    ],
    failedCommands: unresolvedAfter(analysis, prev?.failedCommands).slice(-MAX_FAILURES),
    constraints: mergeBounded([prev?.constraints ?? [], texts.flatMap(extractConstraints)], MAX_CONSTRAINTS),
    extra: {
      requests: carryLines(
        carriedLines(prev, 'requests'),
        texts,
        (t) => oneLine(t, CARRIED_REQUEST_CHARS),
        MAX_CARRIED_LINES,
      ),
      timeline: carryLines(
        carriedLines(prev, 'timeline'),
        analysis.turns,
        (d) => timelineLine(d, 160, 200),
        MAX_CARRIED_LINES,
      ),
    },
  };
  if (plan.latestUserRequest !== undefined) details.lastUserRequest = plan.latestUserRequest;
  return details;
}
