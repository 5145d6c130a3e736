import type { ParsedText } from '../config/parse.js';
import { InputError } from '../model/errors.js';
import { isRecord, type Rec } from './fields.js';
import { lineOfField, splitField } from './json-locate.js';
import { checkDepth, type JsonLine, parseJsonLines, parseJsonText } from './json-text.js';
import type { FormatName } from './types.js';

/**
 * A transcript file read as data: one document (JSON or YAML, with a way from a field path to
 * its line), or JSON Lines.
 */
export type TranscriptShape =
  | { kind: 'json'; value: unknown; lineOf: (field: string) => number | undefined }
  | { kind: 'jsonl'; lines: JsonLine[] };

const JSONL_ONLY: readonly FormatName[] = ['condense', 'claude-code', 'codex'];
const CODEX_TYPES = ['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted'];
const CLAUDE_TYPES = ['user', 'assistant', 'summary', 'system', 'file-history-snapshot', 'queue-operation'];
/** Items only the Responses API has (a Chat Completions message has a role and no type). */
const RESPONSES_TYPES = ['message', 'function_call', 'function_call_output', 'reasoning', 'item_reference'];
const RESPONSES_PARTS = ['input_text', 'output_text', 'input_image', 'input_file'];
/** Content blocks only Anthropic's Messages API has. */
const ANTHROPIC_BLOCKS = [
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'document',
  'server_tool_use',
];

let parseYaml: ((text: string, file: string) => ParsedText) | undefined;

/**
 * Loads the YAML parser, kept out of every CLI start (only YAML files need it): `importFile` calls
 * it for a `.yaml`/`.yml` file; a caller parsing YAML text with `parseTranscript` awaits it first.
 */
export async function loadYaml(): Promise<void> {
  parseYaml ??= (await import('../config/parse.js')).parseYaml;
}

export function isYamlFile(file: string | undefined): boolean {
  const ext = extension(file);
  return ext === 'yaml' || ext === 'yml';
}

function extension(file: string | undefined): string {
  return /\.([^./\\]+)$/.exec(file ?? '')?.[1]?.toLowerCase() ?? '';
}

function json(text: string, file: string | undefined, value = parseJsonText(text, file)): TranscriptShape {
  return { kind: 'json', value, lineOf: (field) => lineOfField(text, field) };
}

/**
 * Reads the text as JSON, YAML or JSON Lines. The extension decides (`.yaml`/`.yml` are YAML: SWE-
 * agent's demonstrations), then the format when it is only ever one of them; otherwise a text
 * that is one JSON document is JSON unless it is a single line-record (an object with a `type`),
 * and a text whose lines parse one by one is JSONL.
 */
export function readShape(text: string, file?: string, format?: FormatName): TranscriptShape {
  const ext = extension(file);
  if (isYamlFile(file)) {
    if (!parseYaml) throw new Error('YAML support is not loaded: await loadYaml() before parsing YAML text');
    const parsed = parseYaml(text, file ?? '');
    return { kind: 'json', value: parsed.value, lineOf: (field) => parsed.lineOf(splitField(field)) };
  }
  if (ext === 'jsonl' || ext === 'ndjson' || (format && JSONL_ONLY.includes(format)))
    return { kind: 'jsonl', lines: parseJsonLines(text, file) };
  if (ext === 'json' || ext === 'traj' || (format && format !== 'openhands')) return json(text, file);
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '';
    if (!isJson(firstLine) || firstLine.trim() === text.trim()) parseJsonText(text, file);
    return { kind: 'jsonl', lines: parseJsonLines(text, file) };
  }
  checkDepth(whole, text, file);
  if (isRecord(whole) && typeof whole.type === 'string' && !isAnthropicResponse(whole))
    return { kind: 'jsonl', lines: [{ line: 1, value: whole }] };
  return json(text, file, whole);
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
    'unrecognized transcript format (expected OpenAI Chat or Responses, Anthropic Messages, tau-bench, SWE-agent, OpenHands, Gemini CLI, Claude Code, Codex or condense JSONL); pass the format explicitly',
    { file, line: shape.kind === 'jsonl' ? shape.lines[0]?.line : 1 },
  );
}

function detectJsonl(lines: JsonLine[]): FormatName | undefined {
  const first = lines[0]?.value;
  if (isRecord(first) && first.type === 'session' && typeof first.id === 'string') return 'condense';
  if (isRecord(first) && 'instance_id' in first && Array.isArray(first.history)) return 'openhands';
  for (const { value } of lines.slice(0, 50)) {
    if (!isRecord(value) || typeof value.type !== 'string') continue;
    if (CODEX_TYPES.includes(value.type) && 'payload' in value) return 'codex';
    if (CLAUDE_TYPES.includes(value.type)) return 'claude-code';
  }
  return undefined;
}

function detectJson(value: unknown, file?: string): FormatName | undefined {
  if (extension(file) === 'traj') return 'swe-agent';
  if (Array.isArray(value)) return detectList(value);
  if (!isRecord(value)) return undefined;
  if (value.object === 'response' || (!('messages' in value) && 'input' in value)) return 'openai-responses';
  if (isAnthropicResponse(value)) return 'anthropic';
  if (Array.isArray(value.history)) return isOpenHandsEvent(value.history[0]) ? 'openhands' : 'swe-agent';
  if (!Array.isArray(value.messages)) return undefined;
  const first = value.messages[0];
  if (isRecord(first) && typeof first.type === 'string') return 'gemini-cli';
  if ('system' in value || value.messages.some(hasAnthropicBlock)) return 'anthropic';
  if (isRecord(first) && 'role' in first) return 'openai';
  if (first === undefined) return 'projectHash' in value ? 'gemini-cli' : 'openai';
  return undefined;
}

function detectList(items: unknown[]): FormatName | undefined {
  const first = items[0];
  if (first === undefined) return 'openai';
  if (isRecord(first) && 'traj' in first) return 'tau-bench';
  if (isOpenHandsEvent(first)) return 'openhands';
  if (items.slice(0, 50).some(isResponsesItem)) return 'openai-responses';
  return isRecord(first) && 'role' in first ? 'openai' : undefined;
}

function isOpenHandsEvent(value: unknown): boolean {
  if (Array.isArray(value)) return isOpenHandsEvent(value[0]);
  return isRecord(value) && (typeof value.action === 'string' || typeof value.observation === 'string');
}

function isResponsesItem(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (typeof value.type === 'string' && RESPONSES_TYPES.includes(value.type)) return true;
  return (
    Array.isArray(value.content) &&
    value.content.some((p) => isRecord(p) && RESPONSES_PARTS.includes(p.type as string))
  );
}

function isAnthropicResponse(value: Rec): boolean {
  return value.type === 'message' && value.role === 'assistant' && Array.isArray(value.content);
}

function hasAnthropicBlock(message: unknown): boolean {
  return (
    isRecord(message) &&
    Array.isArray(message.content) &&
    message.content.some(
      (b) =>
        isRecord(b) && (ANTHROPIC_BLOCKS.includes(b.type as string) || (b.type === 'image' && 'source' in b)),
    )
  );
}
