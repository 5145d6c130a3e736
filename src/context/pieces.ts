import type { MessageEntry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import { repairOne } from './repair.js';
import type { Assembler } from './serialize/assembler.js';
import { systemText } from './serialize/common.js';

/** One view message's share of a request: hoisted system text, or a rendered fragment. */
export type Piece = { system: string } | { user: boolean; fragment: unknown };

/** An entry's piece, with what it was rendered from. */
export interface CachedPiece {
  entry: MessageEntry;
  mark: string;
  /** Whether the view shows the entry at all (a piece may still be null: nothing sendable). */
  shown: boolean;
  piece: Piece | null;
  /** Where its fragment is in the request's fold (-1: none, or not folded yet). */
  slot: number;
}

/**
 * What can change in a stored entry: the session rewrites an entry only to mark tool outputs
 * pruned or to complete a pending call, and both change this.
 */
export function entryMark(entry: MessageEntry): string {
  let mark = `${entry.tokens}/${entry.message.parts.length}`;
  for (const part of entry.message.parts) {
    if (part.type === 'tool') mark += `/${part.state}${part.compactedAt ?? ''}`;
  }
  return mark;
}

/** A view message repaired and rendered by `assembler` (null: nothing of it is sent). */
export function pieceOf(message: Message, assembler: Assembler<unknown, unknown, unknown>): Piece | null {
  const repaired = repairOne(message);
  if (repaired === null) return null;
  if (repaired.role === 'system' && assembler.hoistSystem) return { system: systemText(repaired) };
  return { user: repaired.role === 'user', fragment: deepFreeze(assembler.fragment(repaired)) };
}

/**
 * Fragments are shared by every request built after them: one edited in place (a cache_control
 * added to a block, say) would change every later request. Frozen, such an edit throws instead.
 * Iterative, so that no nesting depth can overflow the stack.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object' || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const key of Object.keys(next)) stack.push((next as Record<string, unknown>)[key]);
  }
  return value;
}
