import type { Entry, MessageEntry } from '../model/entry.js';
import { isSummaryMessage, type Message } from '../model/message.js';
import type { Part, ToolPart } from '../model/parts.js';
import type { ResolvedPruneOptions } from './options.js';

/** A compaction entry or a summary message: the pruning scan stops or skips there. */
export function isPivotOrSummary(entry: Entry): boolean {
  return entry.kind === 'compaction' || isSummaryMessage(entry.message);
}

/**
 * Whether a user message starts a turn. With 'real' counting, messages condense or a compaction
 * wrote (synthetic, marker, summary) do not: they are not the user asking for something.
 */
export function startsPruneTurn(message: Message, counting: ResolvedPruneOptions['turnCounting']): boolean {
  if (message.role !== 'user') return false;
  if (counting === 'any-user') return true;
  if (message.metadata?.synthetic === true || message.metadata?.summary === true) return false;
  if (message.parts.some((p) => p.type === 'compaction')) return false;
  const allSynthetic =
    message.parts.length > 0 && message.parts.every((p) => p.type === 'text' && p.synthetic);
  return !allSynthetic;
}

/**
 * A tool part whose output may fill the protect window or be pruned: finished in a
 * prunable state, not protected by name or predicate, not already marked.
 */
export function isEligibleToolPart(
  part: Part,
  entry: MessageEntry,
  opts: ResolvedPruneOptions,
): part is Extract<ToolPart, { state: 'completed' | 'error' }> {
  if (part.type !== 'tool' || part.compactedAt !== undefined) return false;
  if (part.state !== 'completed' && part.state !== 'error') return false;
  if (!opts.prunableStates.includes(part.state)) return false;
  if (opts.protectedTools.includes(part.name)) return false;
  return !opts.isProtected?.(part, entry);
}
