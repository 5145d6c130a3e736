import type { MessageEntry } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import type { ToolPart } from '../model/parts.js';
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

/** Whitespace flattened to single spaces, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  // Flatten only a prefix: huge texts must not cost more than the line shown.
  const window = max * 4 + 16;
  const flat = (text.length > window ? text.slice(0, window) : text).replace(/\s+/g, ' ').trim();
  return flat.length <= max && text.length <= window ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** A short readable name for a call: its shell command, else `tool(input)`. */
export function toolLabel(part: ToolPart, max = 160): string {
  const command = shellCommand(part);
  if (command !== undefined) return oneLine(command, max);
  return oneLine(`${part.name}(${JSON.stringify(part.input) ?? ''})`, max);
}

/** Why a failed call failed, as a short suffix: "exit 1" or "error: …". */
export function failureNote(part: ToolPart): string {
  if (part.state === 'error') return `error: ${oneLine(part.error, 120)}`;
  const code = toolExitCode(part);
  return code !== undefined ? `exit ${code}` : 'failed';
}

export const FAILURE_SEPARATOR = ' → ';

const CONSTRAINT =
  /\b(never|always|don'?t|do not|must|mustn'?t|must not|should ?n[o']t|avoid|make sure|under no circumstances|no matter what)\b/i;
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

/** User-written text of an entry (synthetic text excluded), or '' for other messages. */
export function userText(entry: MessageEntry): string {
  const m = entry.message;
  if (m.role !== 'user' || m.metadata?.synthetic === true || m.metadata?.summary === true) return '';
  const texts: string[] = [];
  for (const p of m.parts) if (p.type === 'text' && p.synthetic !== true) texts.push(p.text);
  return texts.join('\n');
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

/** Keeps `max` items spread evenly over the list (first and last always kept): coverage over recency. */
export function thinEvenly<T>(items: readonly T[], max: number): T[] {
  return evenIndices(items.length, max).map((i) => items[i]!);
}

/** Indices of `max` items spread evenly over `total` (all of them when total ≤ max). */
export function evenIndices(total: number, max: number): number[] {
  if (total <= max) return Array.from({ length: total }, (_, i) => i);
  if (max <= 1) return max < 1 ? [] : [total - 1];
  return Array.from({ length: max }, (_, i) => Math.round((i * (total - 1)) / (max - 1)));
}
