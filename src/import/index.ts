import { readFile } from 'node:fs/promises';
import { InputError } from '../model/errors.js';
import type { Message } from '../model/message.js';
import { parseClaudeCodeLines } from './claude-code.js';
import { parseCodexLines } from './codex.js';
import { type CondenseExport, parseCondenseJsonl } from './condense-jsonl.js';
import { detectFormat, readShape } from './detect.js';
import { parseGeminiCli } from './gemini-cli.js';
import { lineOfField } from './json-locate.js';
import { parseOpenAIChat } from './openai-chat.js';
import { parseSweAgent } from './swe-agent.js';
import { parseTauBench } from './tau-bench.js';
import type { FormatName, ImportedSession, ImportWhere } from './types.js';

export { parseClaudeCode, parseClaudeCodeLines } from './claude-code.js';
export { parseCodex, parseCodexLines } from './codex.js';
export { type CondenseExport, exportJsonl, parseCondenseJsonl } from './condense-jsonl.js';
export { detectFormat, readShape, type TranscriptShape } from './detect.js';
export { parseGeminiCli } from './gemini-cli.js';
export { lineOfField } from './json-locate.js';
export { parseJsonLines, parseJsonText } from './json-text.js';
export { parseOpenAIChat } from './openai-chat.js';
export { parseSweAgent } from './swe-agent.js';
export { parseTauBench } from './tau-bench.js';
export { NO_RESULT } from './transcript-builder.js';
export * from './types.js';

/**
 * Parses a transcript of any supported format into sessions (tau-bench files hold many runs, so
 * they give an array). The format is detected from the content unless given. Every error is an
 * InputError naming the file, the line, and the field.
 */
export function parseTranscript(
  text: string,
  where: { file?: string; format?: FormatName } = {},
): ImportedSession | ImportedSession[] {
  const { file } = where;
  if (where.format === 'condense') return fromCondense(parseCondenseJsonl(text, { file }));
  const shape = readShape(text, file, where.format);
  const format = where.format ?? detectFormat(shape, file);
  if (shape.kind === 'jsonl') {
    if (format === 'condense') return fromCondense(parseCondenseJsonl(text, { file }));
    if (format === 'claude-code') return parseClaudeCodeLines(shape.lines, { file });
    if (format === 'codex') return parseCodexLines(shape.lines, { file });
    throw new InputError(`a ${format} transcript is one JSON document, not JSON Lines`, { file });
  }
  // Errors inside a JSON document name a field; the line is looked up in the text only then.
  const w: ImportWhere = { file, lineOf: (field) => lineOfField(text, field) };
  switch (format) {
    case 'openai':
      return parseOpenAIChat(shape.value, w);
    case 'tau-bench':
      return parseTauBench(shape.value, w);
    case 'swe-agent':
      return parseSweAgent(shape.value, w);
    case 'gemini-cli':
      return parseGeminiCli(shape.value, w);
    default:
      throw new InputError(`a ${format} transcript is JSON Lines, not one JSON document`, { file });
  }
}

/** Reads a file and parses it with parseTranscript (the only I/O of this folder). */
export async function importFile(
  path: string,
  format?: FormatName,
): Promise<ImportedSession | ImportedSession[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read file (${error instanceof Error ? error.message : String(error)})`, {
      file: path,
    });
  }
  return parseTranscript(text, { file: path, format });
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
