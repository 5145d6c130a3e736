import { InputError } from '../model/errors.js';
import { isRecord } from './fields.js';
import { type JsonLine, parseJsonLines, parseJsonText } from './json-text.js';
import type { FormatName } from './types.js';

/** A transcript file read as JSON: one document, or JSON Lines. */
export type TranscriptShape = { kind: 'json'; value: unknown } | { kind: 'jsonl'; lines: JsonLine[] };

const JSONL_FORMATS: readonly FormatName[] = ['condense', 'claude-code', 'codex'];
const CODEX_TYPES = ['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted'];
const CLAUDE_TYPES = ['user', 'assistant', 'summary', 'system', 'file-history-snapshot', 'queue-operation'];

function extension(file: string | undefined): string {
  return /\.([^./\\]+)$/.exec(file ?? '')?.[1]?.toLowerCase() ?? '';
}

/**
 * Reads the text as JSON or JSON Lines. The format (when known) or the extension decides; otherwise
 * a text that is one JSON document is JSON unless it is a single line-record (an object with a
 * `type`), and a text whose lines parse one by one is JSONL.
 */
export function readShape(text: string, file?: string, format?: FormatName): TranscriptShape {
  const ext = extension(file);
  if (format !== undefined) {
    return JSONL_FORMATS.includes(format)
      ? { kind: 'jsonl', lines: parseJsonLines(text, file) }
      : { kind: 'json', value: parseJsonText(text, file) };
  }
  if (ext === 'jsonl' || ext === 'ndjson') return { kind: 'jsonl', lines: parseJsonLines(text, file) };
  if (ext === 'json' || ext === 'traj') return { kind: 'json', value: parseJsonText(text, file) };
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '';
    if (!isJson(firstLine) || firstLine.trim() === text.trim()) parseJsonText(text, file);
    return { kind: 'jsonl', lines: parseJsonLines(text, file) };
  }
  if (isRecord(whole) && typeof whole.type === 'string')
    return { kind: 'jsonl', lines: [{ line: 1, value: whole }] };
  return { kind: 'json', value: whole };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Which format a parsed transcript is in, from its content (and the `.traj` extension). */
export function detectFormat(shape: TranscriptShape, file?: string): FormatName {
  const found = shape.kind === 'jsonl' ? detectJsonl(shape.lines) : detectJson(shape.value, file);
  if (found) return found;
  throw new InputError(
    'unrecognized transcript format (expected OpenAI Chat, tau-bench, SWE-agent, Gemini CLI, Claude Code, Codex or condense JSONL); pass the format explicitly',
    { file, line: shape.kind === 'jsonl' ? shape.lines[0]?.line : 1 },
  );
}

function detectJsonl(lines: JsonLine[]): FormatName | undefined {
  const first = lines[0]?.value;
  if (isRecord(first) && first.type === 'session' && typeof first.id === 'string') return 'condense';
  for (const { value } of lines.slice(0, 50)) {
    if (!isRecord(value) || typeof value.type !== 'string') continue;
    if (CODEX_TYPES.includes(value.type) && 'payload' in value) return 'codex';
    if (CLAUDE_TYPES.includes(value.type)) return 'claude-code';
  }
  return undefined;
}

function detectJson(value: unknown, file?: string): FormatName | undefined {
  if (extension(file) === 'traj') return 'swe-agent';
  if (Array.isArray(value)) {
    const first = value[0];
    if (first === undefined) return 'openai';
    if (isRecord(first) && 'traj' in first) return 'tau-bench';
    return isRecord(first) && 'role' in first ? 'openai' : undefined;
  }
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.history)) return 'swe-agent';
  if (!Array.isArray(value.messages)) return undefined;
  const first = value.messages[0];
  if (isRecord(first) && 'role' in first) return 'openai';
  if (isRecord(first) && typeof first.type === 'string') return 'gemini-cli';
  return first === undefined && 'projectHash' in value
    ? 'gemini-cli'
    : first === undefined
      ? 'openai'
      : undefined;
}
