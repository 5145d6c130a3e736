import type { Message } from '../model/message.js';

/** Characters of a turn's request shown in the report (the whole text stays in the store). */
export const PREVIEW_CHARS = 140;

/** One turn as the report lists it: where it sits in the log and what it asked. */
export interface TurnRow {
  /** Its first entry's id (a turn's id, as `condense lineage` names it). */
  id: string;
  firstSeq: number;
  lastSeq: number;
  entries: number;
  /** Estimated tokens of its entries as stored now. */
  tokens: number;
  at: number;
  /** 'compaction' for a pivot's own turn. */
  kind: 'turn' | 'compaction';
  /** The request's text, shortened; for a turn with no request, its first text. */
  preview: string;
  /** Tool calls by name, e.g. "bash×3 read_file". */
  tools: string;
}

/** One line of at most PREVIEW_CHARS characters, cut at a code point boundary. */
export function shorten(text: string, max = PREVIEW_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = Array.from(line.slice(0, max + 1)).slice(0, max - 1);
  return `${cut.join('')}…`;
}

/** Characters of each end of a tool output searched for quotes: where results, errors and totals sit. */
export const OUTPUT_ENDS = 300;

/**
 * What a summary's quotes are looked for in: texts, tool inputs and errors whole, and both ends of
 * each tool output (a long file listing or log is read at its head and tail only, so a 100,000-entry
 * session is searched in well under a second).
 */
export function searchableText(message: Message): string {
  const out: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'text' || part.type === 'reasoning') out.push(part.text);
    else if (part.type === 'tool') {
      out.push(`${part.name} ${JSON.stringify(part.input) ?? ''}`);
      if (part.state === 'completed')
        out.push(ends(typeof part.output === 'string' ? part.output : (JSON.stringify(part.output) ?? '')));
      else if (part.state === 'error') out.push(part.error);
    } else if (part.type === 'file' && part.filename) out.push(part.filename);
  }
  return out.join('\n');
}

function ends(text: string): string {
  if (text.length <= 2 * OUTPUT_ENDS) return text;
  return `${text.slice(0, OUTPUT_ENDS)}\n${text.slice(-OUTPUT_ENDS)}`;
}
