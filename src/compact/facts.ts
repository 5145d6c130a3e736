import type { JsonValue } from '../model/json.js';
import type { ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import { noMatchExit, rejectedCall } from './handover/calls.js';
import { shellCommand } from './paths.js';

function asObject(v: JsonValue | undefined): Record<string, JsonValue> | undefined {
  return v !== undefined && v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

const EXIT_FIELDS = ['exitCode', 'exit_code', 'exit', 'returncode', 'returnCode'];
const EXIT_TEXT = /(?:^Exit code:? |exited with (?:exit )?code |exit (?:code|status)[:=]? ?)(-?\d+)/im;

/** The process exit code a completed tool call reports, if any (object fields or "Exit code: N" text). */
export function toolExitCode(part: ToolPart): number | undefined {
  if (part.state !== 'completed') return undefined;
  const out = asObject(part.output);
  for (const holder of [out, asObject(out?.metadata)]) {
    for (const f of EXIT_FIELDS) {
      const v = holder?.[f];
      if (typeof v === 'number' && Number.isInteger(v)) return v;
    }
  }
  const text =
    typeof part.output === 'string' ? part.output : typeof out?.output === 'string' ? out.output : undefined;
  if (text === undefined) return undefined;
  const head = text.length > 400 ? text.slice(0, 400) : text;
  // A plain substring test first: most outputs never mention an exit code, and the regex is slow.
  if (!head.includes('xit') && !head.includes('XIT')) return undefined;
  const m = EXIT_TEXT.exec(head);
  if (m) return Number(m[1]);
  return undefined;
}

/** A call that failed: error state, a non-zero exit code, or an output flagged as an error. */
export function toolFailed(part: ToolPart): boolean {
  if (part.state === 'error') return true;
  if (part.state !== 'completed') return false;
  const out = asObject(part.output);
  if (out?.is_error === true || out?.isError === true || out?.error === true) return true;
  const code = toolExitCode(part);
  return code !== undefined && code !== 0;
}

/**
 * A call that failed in a way a resuming agent must know: not one the user rejected or
 * interrupted (no failure: the user's choice), not a search that found nothing.
 */
export function callFailed(part: ToolPart): boolean {
  if (!toolFailed(part) || rejectedCall(part)) return false;
  const command = part.state === 'completed' ? shellCommand(part) : undefined;
  return command === undefined || !noMatchExit(command, toolExitCode(part), toolOutputText(part));
}

/** Whitespace flattened to single spaces, cut at a word boundary to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  // Flatten only a prefix: huge texts must not cost more than the line shown.
  const window = max * 4 + 16;
  const flat = (text.length > window ? text.slice(0, window) : text).replace(/\s+/g, ' ').trim();
  if (flat.length <= max && text.length <= window) return flat;
  const space = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, space > max / 2 ? space : Math.max(0, max - 1))}…`;
}

const LABEL_PATH_FIELDS = [
  'file_path',
  'path',
  'notebook_path',
  'absolute_path',
  'filePath',
  'filename',
  'file',
];

/** The file a call works on, when its input names one. */
function callPath(input: JsonValue): string | undefined {
  const o = asObject(input);
  if (o === undefined) return undefined;
  for (const f of LABEL_PATH_FIELDS) if (typeof o[f] === 'string' && o[f] !== '') return o[f] as string;
  return undefined;
}

/** A short readable name for a call: its shell command, `Tool path` for file tools, else `tool(input)`. */
export function toolLabel(part: ToolPart, max = 160): string {
  const command = shellCommand(part);
  if (command !== undefined) return oneLine(command, max);
  const path = callPath(part.input);
  if (path !== undefined) return oneLine(`${part.name} ${path}`, max);
  return oneLine(`${part.name}(${JSON.stringify(part.input) ?? ''})`, max);
}

/** Why a failed call failed, as a short suffix: "exit 1" or "error: …". */
export function failureNote(part: ToolPart): string {
  if (part.state === 'error') return `error: ${oneLine(part.error, 120)}`;
  const code = toolExitCode(part);
  return code !== undefined ? `exit ${code}` : 'failed';
}

export const FAILURE_SEPARATOR = ' → ';

/**
 * A rule the user set: a sentence that opens with one ("Never …", "Always …", "Don't …", "Make
 * sure …"), addresses one to the agent ("you must …", "we should not …"), or forbids ("must not",
 * "should never"). "must have been" and "I've always" are not rules.
 */
const CONSTRAINT =
  /\b(?:is|are) not acceptable\b|\bunacceptable\b|\bnot allowed\b|\bimportant not to\b|^(?:please,? )?(?:never|always|don'?t|do not|avoid|make sure|ensure|under no circumstances|no matter what|only)\b|\b(?:you|we|it|they)(?:'ll| will)? (?:must|mustn'?t|shouldn'?t)\b(?! have\b)|\b(?:must not|mustn'?t|should not|shouldn'?t|should never|must never|never)\b(?! (?:mind|ever)\b)(?=.{0,80}\b(?:use|push|commit|change|touch|modify|add|create|delete|remove|run|call|write|edit|refer|be|produce|do|merge|break|include|rely)\b)/i;
const MAX_CONSTRAINT_CHARS = 400;
const SCANNED_CHARS = 8_000;

/** Sentences of user text that state a rule ("never …", "always …", "don't …", "must …"), verbatim. */
export function extractConstraints(text: string): string[] {
  const out: string[] = [];
  const scanned = text.slice(0, SCANNED_CHARS);
  for (const raw of scanned.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.replace(/^\s*(?:[-*•>]|\d+[.)])\s*/, '').trim();
    if (sentence.length < 6 || sentence.length > MAX_CONSTRAINT_CHARS) continue;
    if (CONSTRAINT.test(sentence)) out.push(sentence);
  }
  return out;
}

/** Deduplicates keeping first occurrences; over `max`, keeps both ends (oldest rules and newest). */
export function mergeBounded(
  lists: ReadonlyArray<readonly string[]>,
  max: number,
  keepOldest = 10,
): string[] {
  const all = [...new Set(lists.flat())];
  if (all.length <= max) return all;
  return [...all.slice(0, keepOldest), ...all.slice(all.length - (max - keepOldest))];
}

const DECISION =
  /\b(?:go with|instead of|rather than|decided|decide to|use \S+ (?:for|instead)|switch to|set \S+ to)\b/i;

/** Sentences of user text that state a decision ("let's …", "use X instead", "go with …"), verbatim. */
export function extractDecisions(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.slice(0, SCANNED_CHARS).split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.replace(/^\s*(?:[-*•>]|\d+[.)])\s*/, '').trim();
    if (sentence.length < 6 || sentence.length > MAX_CONSTRAINT_CHARS) continue;
    if (DECISION.test(sentence) && !CONSTRAINT.test(sentence)) out.push(sentence);
  }
  return out;
}

const NEXT_STEP =
  /\b(?:next,? (?:I|we)|(?:I|we)(?:'ll| will) (?:now |next |then )?\w+|let me|now (?:I|we)|remaining|still (?:need|to do)|to do:|TODO)\b/i;

/** The last sentence of an assistant's text that announces what comes next, verbatim, if any. */
export function nextStepOf(text: string): string | undefined {
  const sentences = text
    .slice(-SCANNED_CHARS)
    .split(/(?<=[.!?:])\s+|\n+/)
    .map((s) => s.replace(/^\s*(?:[-*•>#]+|\d+[.)])\s*/, '').trim());
  return sentences.findLast((s) => s.length >= 6 && s.length <= MAX_CONSTRAINT_CHARS && NEXT_STEP.test(s));
}
