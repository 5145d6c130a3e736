import { InputError } from '../model/errors.js';
import type { Message } from '../model/message.js';
import { parseAnthropicMessages } from './anthropic-messages.js';
import { parseClaudeCodeLines } from './claude-code.js';
import { parseCodexLines } from './codex.js';
import { type CondenseExport, parseCondenseJsonl } from './condense-jsonl.js';
import { detectFormat, isYamlFile, loadYaml, readShape } from './detect.js';
import { parseGeminiCli } from './gemini-cli.js';
import { strictError } from './issues.js';
import { stripBom } from './json-text.js';
import { parseOpenAIChat } from './openai-chat.js';
import { parseOpenAIResponses } from './openai-responses.js';
import { parseOpenHands, parseOpenHandsLines } from './openhands.js';
import { readTranscript } from './read.js';
import { parseSweAgent } from './swe-agent.js';
import { parseTauBench } from './tau-bench.js';
import type { FormatName, ImportedSession, ImportWhere } from './types.js';

export { parseAnthropicMessages } from './anthropic-messages.js';
export { parseClaudeCode, parseClaudeCodeLines } from './claude-code.js';
export { parseCodex, parseCodexLines } from './codex.js';
export { type CondenseExport, exportJsonl, parseCondenseJsonl } from './condense-jsonl.js';
export { detectFormat, loadYaml, readShape, type TranscriptShape } from './detect.js';
export { parseGeminiCli } from './gemini-cli.js';
export { describeIssues, strictError } from './issues.js';
export { lineOfField } from './json-locate.js';
export { parseJsonLines, parseJsonText } from './json-text.js';
export { parseOpenAIChat } from './openai-chat.js';
export { parseOpenAIResponses } from './openai-responses.js';
export { parseOpenHands, parseOpenHandsLines } from './openhands.js';
export { decodeTranscript, readTranscript } from './read.js';
export type { SeedShape } from './seed-shapes.js';
export { parseSweAgent } from './swe-agent.js';
export { parseTauBench } from './tau-bench.js';
export { NO_RESULT } from './transcript-builder.js';
export * from './types.js';

export interface ParseOptions {
  file?: string;
  /** The format, when not to be detected from the content. */
  format?: FormatName;
  /** Refuse the file at its first issue (content that would be kept in another form) instead of reporting it. */
  strict?: boolean;
}

/**
 * Parses a transcript of any supported format into sessions (tau-bench files and OpenHands
 * output.jsonl hold many runs, so they give an array). The format is detected from the content
 * unless given. Every error is an InputError naming the file, the line, and the field.
 */
export function parseTranscript(text: string, where: ParseOptions = {}): ImportedSession | ImportedSession[] {
  const parsed = parseAny(stripBom(text), where);
  if (where.strict) {
    const error = strictError(
      (Array.isArray(parsed) ? parsed : [parsed]).flatMap((s) => s.issues ?? []),
      where.file,
    );
    if (error) throw error;
  }
  return parsed;
}

function parseAny(text: string, { file, format }: ParseOptions): ImportedSession | ImportedSession[] {
  if (format === 'condense') return fromCondense(parseCondenseJsonl(text, { file }));
  const shape = readShape(text, file, format);
  const detected = format ?? detectFormat(shape, file);
  if (shape.kind === 'jsonl') {
    if (detected === 'condense') return fromCondense(parseCondenseJsonl(text, { file }));
    if (detected === 'claude-code') return parseClaudeCodeLines(shape.lines, { file });
    if (detected === 'codex') return parseCodexLines(shape.lines, { file });
    if (detected === 'openhands') return parseOpenHandsLines(shape.lines, { file });
    throw new InputError(`a ${detected} transcript is one JSON document, not JSON Lines`, { file });
  }
  // Errors inside a JSON document name a field; the line is looked up in the text only then.
  const w: ImportWhere = { file, lineOf: shape.lineOf };
  switch (detected) {
    case 'openai':
      return parseOpenAIChat(shape.value, w);
    case 'tau-bench':
      return parseTauBench(shape.value, w);
    case 'swe-agent':
      return parseSweAgent(shape.value, w);
    case 'gemini-cli':
      return parseGeminiCli(shape.value, w);
    case 'openhands':
      return parseOpenHands(shape.value, w);
    case 'openai-responses':
      return parseOpenAIResponses(shape.value, w);
    case 'anthropic':
      return parseAnthropicMessages(shape.value, w);
    default:
      throw new InputError(`a ${detected} transcript is JSON Lines, not one JSON document`, { file });
  }
}

/**
 * Reads a file and parses it with parseTranscript. Bytes that are not UTF-8 are issues of the
 * file, carried by its first session.
 */
export async function importFile(
  path: string,
  options: Omit<ParseOptions, 'file'> = {},
): Promise<ImportedSession | ImportedSession[]> {
  const { text, issues } = await readTranscript(path);
  if (isYamlFile(path)) await loadYaml();
  if (options.strict) {
    const error = strictError(issues, path);
    if (error) throw error;
  }
  const parsed = parseTranscript(text, { ...options, file: path });
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (first && issues.length > 0) first.issues = [...issues, ...(first.issues ?? [])];
  return parsed;
}

/** condense's export as an ImportedSession; the exact entries ride along in `condense`. */
function fromCondense(parsed: CondenseExport): ImportedSession {
  const messages = parsed.entries.map((entry) => {
    const message: Message =
      entry.kind === 'message'
        ? entry.message
        : { role: 'user', parts: [{ type: 'text', text: entry.pivot.summary }], metadata: { summary: true } };
    return { message, createdAt: entry.createdAt };
  });
  return { format: 'condense', sessionId: parsed.session.id, messages, warnings: [], condense: parsed };
}
