import type { PivotDetails } from '../model/entry.js';
import type { SummaryBudget } from './input.js';
import type { SummaryResult } from './summarizer.js';

/**
 * The quality gate every summary passes before it becomes a pivot, whoever wrote it: deterministic
 * probes of what a resuming agent needs — the latest request verbatim, the files it changed, the
 * failures still open, the key values its tools produced — checked on the summary and the kept
 * tail together. What is missing is appended from the session's own facts; a summary that is
 * empty, not smaller than what it replaces, over its budget, or still missing a probe is refused
 * (the caller falls back to the extractive summary). Pure.
 */

export const COMPLETION_HEADING = '--- Facts the summary left out (from the session record) ---';

export interface GateInput {
  result: SummaryResult;
  /** What the summary replaces, in the budget's tokens. */
  replacedTokens: number;
  /** The text of the messages kept verbatim after the summary. */
  tailText: string;
  /** The latest request, when the summary must carry it (it is not in the tail). */
  latestRequest?: string;
  budget: SummaryBudget & { count: (text: string) => number };
}

export type GateRefusal = 'empty' | 'not-smaller' | 'over-budget' | 'probes';

export type GateVerdict =
  | { ok: true; result: SummaryResult; completed: string[] }
  | { ok: false; reason: GateRefusal; detail: string };

/** Key values a pivot carries (see the handover), as a list of strings. */
function keyValues(details: PivotDetails): string[] {
  const v = details.extra?.keyValues;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The label of an open failure ("npm test → why"): the part a summary must name. */
const failureLabel = (f: string) => f.split(' → ')[0]!.trim();

interface Probe {
  name: string;
  /** What must appear verbatim. */
  needle: string;
  /** The line that supplies it when missing. */
  line: string;
}

/** Facts of each kind probed: the newest ones (a bounded handover shows these and counts the rest). */
const PROBED = 10;

function probes(input: GateInput): Probe[] {
  const d = input.result.details;
  const out: Probe[] = [];
  const request = input.latestRequest?.trim();
  if (request)
    out.push({ name: 'latest request', needle: request, line: `Latest request (verbatim): ${request}` });
  for (const f of d.filesModified.slice(-PROBED))
    out.push({ name: `modified file ${f}`, needle: f, line: `Modified: ${f}` });
  for (const f of (d.failedCommands ?? []).slice(-PROBED))
    out.push({
      name: `open failure ${failureLabel(f)}`,
      needle: failureLabel(f),
      line: `Still failing: ${f}`,
    });
  for (const v of keyValues(d).slice(-PROBED))
    out.push({ name: `key value ${v}`, needle: v, line: `Key value: ${v}` });
  return out;
}

const flat = (s: string) => s.replace(/\s+/g, ' ');

/** The names of the probes the text fails. */
export function missingProbes(text: string, input: GateInput): Probe[] {
  const seen = flat(`${text}\n${input.tailText}`);
  return probes(input).filter((p) => !seen.includes(flat(p.needle)));
}

export function gateSummary(input: GateInput): GateVerdict {
  const { result, budget } = input;
  const text = result.text.trim();
  if (text === '') return { ok: false, reason: 'empty', detail: 'the summary is empty' };
  const size = budget.count(text);
  if (size >= input.replacedTokens)
    return {
      ok: false,
      reason: 'not-smaller',
      detail: `the summary (${size} tokens) is not smaller than what it replaces (${input.replacedTokens})`,
    };
  const missing = missingProbes(text, input);
  const completed =
    missing.length === 0
      ? text
      : `${text}\n\n${[COMPLETION_HEADING, ...missing.map((p) => p.line)].join('\n')}`;
  const total = budget.count(completed);
  if (total > budget.tokens)
    return {
      ok: false,
      reason: missing.length === 0 ? 'over-budget' : 'probes',
      detail:
        missing.length === 0
          ? `the summary (${total} tokens) is over its budget of ${budget.tokens}`
          : `completing it with ${missing.length} missing fact(s) (${missing
              .slice(0, 3)
              .map((p) => p.name)
              .join(', ')}) would take ${total} tokens, over its budget of ${budget.tokens}`,
    };
  return { ok: true, result: { ...result, text: completed }, completed: missing.map((p) => p.name) };
}
