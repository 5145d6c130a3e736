import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { InputError } from '../model/errors.js';
import type { ImportIssue } from './types.js';

/** A transcript file's text, and the lines whose bytes were not UTF-8. */
export interface TranscriptText {
  text: string;
  issues: ImportIssue[];
}

const REPLACEMENT = 0xfffd;

/**
 * Decodes a transcript. Bytes that are not UTF-8 become U+FFFD, as every reader makes them, but
 * never silently: each line holding some is an issue with its count (a U+FFFD the file itself
 * held is not counted). The scan runs only when the whole file fails the check.
 */
export function decodeTranscript(bytes: Uint8Array): TranscriptText {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('utf8');
  if (isUtf8(buffer)) return { text, issues: [] };
  const issues: ImportIssue[] = [];
  let start = 0;
  for (let line = 1; start <= buffer.length; line++) {
    const newline = buffer.indexOf(10, start);
    const end = newline === -1 ? buffer.length : newline;
    const raw = buffer.subarray(start, end);
    if (!isUtf8(raw)) {
      const count =
        replacements(raw.toString('utf8')) - replacements(raw.toString('latin1'), '\u00ef\u00bf\u00bd');
      issues.push({
        kind: 'invalid-utf8',
        count,
        detail: `${count} byte sequence${count === 1 ? '' : 's'} that are not UTF-8`,
        line,
      });
    }
    start = end + 1;
  }
  return { text, issues };
}

/** Occurrences of U+FFFD in `text`, or of its UTF-8 bytes read one per character. */
function replacements(text: string, needle = String.fromCharCode(REPLACEMENT)): number {
  return text.split(needle).length - 1;
}

/** Reads a transcript file (the only file I/O of the importers). */
export async function readTranscript(path: string): Promise<TranscriptText> {
  try {
    return decodeTranscript(await readFile(path));
  } catch (error) {
    throw new InputError(`cannot read file (${error instanceof Error ? error.message : String(error)})`, {
      file: path,
    });
  }
}
