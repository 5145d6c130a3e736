import type { JsonObject } from '../model/json.js';
import { textBlock } from './anthropic-blocks.js';
import { fail, joinField, needArray, needRecord, type Rec } from './fields.js';
import type { ImportedCompaction, ImportWhere } from './types.js';

/** A `compact_boundary` line waiting for the summary line Claude Code writes after it. */
export interface Boundary {
  line: number;
  metadata?: JsonObject;
  createdAt?: number;
}

export function unanswered(boundary: Boundary): string {
  return `line ${boundary.line}: compact_boundary without a summary after it skipped (the history before it stays in view)`;
}

/**
 * The compaction a summary line (`isCompactSummary`) completes, placed after the `at` messages
 * before it: Claude Code's own prompt size at the time (compactMetadata.preTokens), its trigger,
 * and the boundary's metadata kept as it was.
 */
export function compactionOf(
  at: number,
  rec: Rec,
  w: ImportWhere,
  boundary: Boundary | undefined,
  summaryTime: number | undefined,
): ImportedCompaction {
  const summary = summaryText(needRecord(rec.message, w, 'message'), w);
  const preTokens = boundary?.metadata?.preTokens;
  const time = boundary?.createdAt ?? summaryTime;
  return {
    at,
    summary,
    auto: boundary?.metadata?.trigger === 'auto',
    ...(typeof preTokens === 'number' && Number.isInteger(preTokens) && preTokens >= 0
      ? { tokensBefore: preTokens }
      : {}),
    ...(time === undefined ? {} : { createdAt: time }),
    ...(boundary?.metadata ? { source: { compactMetadata: boundary.metadata } } : {}),
  };
}

/** The summary's text: a string, or text blocks (anything else in a summary is not expected). */
function summaryText(message: Rec, w: ImportWhere): string {
  const content = message.content;
  const text =
    typeof content === 'string'
      ? content
      : needArray(content, w, 'message.content')
          .map((raw, j) => {
            const field = joinField('message.content', j);
            const block = needRecord(raw, w, field);
            if (block.type !== 'text')
              fail('a compact summary holds only text blocks', w, joinField(field, 'type'));
            return textBlock(block, w, field).text;
          })
          .join('\n');
  if (text.trim() === '') fail('compact summary is empty', w, 'message.content');
  return text;
}
