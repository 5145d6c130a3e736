import type { Entry } from '../model/entry.js';
import type { Part } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';

/**
 * Everything an entry holds as searchable text: message text, reasoning, tool names, inputs and
 * outputs — the stored output of a pruned call included, since pruning only hides it from the
 * model — and a compaction's summary.
 */
export function entryText(entry: Entry): string {
  if (entry.kind === 'compaction') return entry.pivot.summary;
  return (entry.message.parts as Part[])
    .map(partText)
    .filter((t) => t !== '')
    .join('\n');
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text;
    case 'file':
      return part.filename ?? '';
    case 'tool': {
      const result = part.state === 'completed' || part.state === 'error' ? toolOutputText(part) : '';
      return [part.name, JSON.stringify(part.input) ?? '', result].join('\n');
    }
    case 'compaction':
      return part.instructions ?? '';
  }
}

/** A word of a text and where it starts: letters and digits, case and accents folded (as FTS5's unicode61). */
export interface Token {
  word: string;
  at: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

const NOT_ASCII = /[^\p{ASCII}]/u;

export function fold(text: string): string {
  // Most text is ASCII: no accents to strip, and normalizing it would cost more than the rest.
  if (!NOT_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    tokens.push({ word: fold(match[0]), at: match.index, end: match.index + match[0].length });
  }
  return tokens;
}
