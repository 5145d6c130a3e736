import type { PivotDetails } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import { clipLine } from './error-lines.js';
import { extractConstraints, extractDecisions, mergeBounded, nextStepOf } from './facts.js';
import { normalizePath } from './path-normal.js';
import type { CompactionPlan } from './plan.js';
import { analyzeSpan, openFailures, type SpanAnalysis } from './span.js';

const MAX_CONSTRAINTS = 40;
const MAX_DECISIONS = 20;
const MAX_FAILURES = 20;
const MAX_COMMANDS = 60;
/** Requests carried verbatim: the first ones (the original goal) and the newest. */
const MAX_REQUESTS = 200;
const OLDEST_REQUESTS = 20;
const REQUEST_CHARS = 2_000;

/** A command's final outcome as carried: [label, 'ok' | 'failed' | 'fixed']. */
export type CarriedCommand = [string, string];

/** Strings a previous pivot carried under `extra[key]` (requests; timeline from older versions). */
export function carriedLines(details: PivotDetails | undefined, key: string): string[] {
  const v: JsonValue | undefined = details?.extra?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function carriedCommands(details: PivotDetails | undefined): CarriedCommand[] {
  const v = details?.extra?.commands;
  if (!Array.isArray(v)) return [];
  return v.filter(
    (x): x is CarriedCommand => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'string',
  );
}

/** Keeps the first `oldest` and the newest of a list longer than `max`. */
function bothEnds<T>(list: T[], max: number, oldest: number): T[] {
  return list.length <= max ? list : [...list.slice(0, oldest), ...list.slice(list.length - (max - oldest))];
}

/** Commands of earlier summaries, then the span's, each at its latest outcome. */
function mergedCommands(prev: PivotDetails | undefined, analysis: SpanAnalysis): CarriedCommand[] {
  const all = new Map<string, string>(carriedCommands(prev));
  for (const o of analysis.outcomes) {
    if (!o.shell) continue;
    all.delete(o.label);
    all.set(o.label, o.status);
  }
  return [...all].slice(-MAX_COMMANDS);
}

/**
 * The facts a pivot carries structurally, merged with the previous pivot's so that they survive
 * any number of compactions whatever the summary text says. Paths are spelled one way (relative
 * to the working directory), requests kept verbatim. Pass `analysis` when already made.
 */
export function collectDetails(
  plan: CompactionPlan,
  analysis: SpanAnalysis = analyzeSpan(plan.toSummarize, plan.previousPivot?.pivot.details),
): PivotDetails {
  const prev = plan.previousPivot?.pivot.details;
  const norm = (p: string) => normalizePath(p, analysis.base);
  const files = [...analysis.files.values()];
  const texts = analysis.userTexts;
  const unique = (a: string[]) => [...new Set(a)];
  const next = nextStepOf(analysis.lastAssistant) ?? carriedLines(prev, 'nextStep')[0];
  const details: PivotDetails = {
    filesRead: unique([
      ...(prev?.filesRead ?? []).map(norm),
      ...files.filter((f) => f.read).map((f) => f.path),
    ]),
    filesModified: unique([
      ...(prev?.filesModified ?? []).map(norm),
      ...files.filter((f) => f.modified).map((f) => f.path),
    ]),
    failedCommands: openFailures(analysis.outcomes).slice(-MAX_FAILURES),
    constraints: mergeBounded([prev?.constraints ?? [], texts.flatMap(extractConstraints)], MAX_CONSTRAINTS),
    extra: {
      requests: bothEnds(
        [...carriedLines(prev, 'requests'), ...texts.map((t) => clipLine(t, REQUEST_CHARS))],
        MAX_REQUESTS,
        OLDEST_REQUESTS,
      ),
      commands: mergedCommands(prev, analysis),
      decisions: mergeBounded(
        [carriedLines(prev, 'decisions'), texts.flatMap(extractDecisions)],
        MAX_DECISIONS,
      ),
      ...(next === undefined ? {} : { nextStep: [next] }),
      ...(analysis.base.cwd === undefined ? {} : { cwd: analysis.base.cwd }),
    },
  };
  if (plan.latestUserRequest !== undefined) details.lastUserRequest = plan.latestUserRequest;
  return details;
}
