import { InputError } from '../model/errors.js';
import { syntaxErrorOffset } from './json-syntax.js';

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Where JSON.parse stopped: V8 reports "at position N" (and on newer versions "line L column C");
 * an unexpected end is on the last line.
 */
export function syntaxErrorLine(text: string, message: string): number {
  const explicit = /line (\d+) column \d+/.exec(message);
  if (explicit) return Number(explicit[1]);
  const position = /position (\d+)/.exec(message);
  // Without a position (Node 20's "Unexpected token" messages), find the error ourselves.
  const offset = position ? Number(position[1]) : syntaxErrorOffset(text);
  // A position past the last character (input ended early) is reported on the last non-blank line.
  const end = text.trimEnd().length;
  return lineAt(text, offset >= 0 ? Math.min(offset, end) : end);
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The position is replaced by the line we report, so it is dropped from the reason.
  return message
    .replace(/,? ?(at )?position \d+( \(line \d+ column \d+\))?/, '')
    .replace(/, ".*" is not valid JSON$/s, '') // V8 quotes the text itself: the line says where
    .trim();
}

/** Parses a whole-file JSON document; a syntax error names the file and the line it is on. */
export function parseJsonText(text: string, file?: string): unknown {
  if (text.trim() === '') throw new InputError('malformed JSON: the file is empty', { file, line: 1 });
  try {
    return JSON.parse(text);
  } catch (error) {
    const line = syntaxErrorLine(text, error instanceof Error ? error.message : '');
    throw new InputError(`malformed JSON: ${reasonOf(error)}`, { file, line });
  }
}

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/** Parses JSON Lines; blank lines are skipped, a line that does not parse names its line number. */
export function parseJsonLines(text: string, file?: string): JsonLine[] {
  const out: JsonLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (error) {
      throw new InputError(`malformed JSON line: ${reasonOf(error)}`, { file, line: i + 1 });
    }
  }
  return out;
}
