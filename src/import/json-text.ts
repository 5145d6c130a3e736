import { InputError } from '../model/errors.js';
import { MAX_JSON_DEPTH, pathTooDeep } from '../model/json.js';
import { tooDeepError } from '../model/validate.js';
import { syntaxErrorOffset } from './json-syntax.js';

/** A UTF-8 byte order mark, as Windows editors write at the start of a file: not part of the JSON. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Offset of the first `{` or `[` opening a level past `max` (strings skipped), or -1. */
function offsetPastDepth(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 123 || c === 91) {
      if (++depth > max) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}

/**
 * `value` as parsed, unless it nests deeper than MAX_JSON_DEPTH: every later step recurses, so
 * that is bad input named by file, line (of `text`, past `firstLine`) and field here.
 */
export function checkDepth(value: unknown, text: string, file?: string, firstLine = 1): unknown {
  const path = pathTooDeep(value);
  if (path === undefined) return value;
  const offset = offsetPastDepth(text, MAX_JSON_DEPTH);
  throw tooDeepError(path, { file, line: firstLine - 1 + lineAt(text, Math.max(offset, 0)) });
}

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
export function parseJsonText(bomText: string, file?: string): unknown {
  const text = stripBom(bomText);
  if (text.trim() === '') throw new InputError('malformed JSON: the file is empty', { file, line: 1 });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const line = syntaxErrorLine(text, error instanceof Error ? error.message : '');
    throw new InputError(`malformed JSON: ${reasonOf(error)}`, { file, line });
  }
  return checkDepth(value, text, file);
}

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/** Parses JSON Lines; blank lines are skipped, a line that does not parse names its line number. */
export function parseJsonLines(text: string, file?: string): JsonLine[] {
  const out: JsonLine[] = [];
  const lines = stripBom(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new InputError(`malformed JSON line: ${reasonOf(error)}`, { file, line: i + 1 });
    }
    out.push({ line: i + 1, value: checkDepth(value, raw, file, i + 1) });
  }
  return out;
}
