import type { Message } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';

/**
 * Nexus's `Turn`, derived from a session's entries (nothing is stored twice). A turn is a user
 * request and everything up to the next one; a compaction entry is a turn of its own. Its id is
 * its first entry's id.
 */
interface TurnBase {
  id: string;
  /** The turn holding this turn's first entry's parent; absent for the first turn. */
  parentTurnId?: string;
  /** The turn's messages before its first assistant message (queued markers left out). */
  queryMessages: Message[];
  /** The turn's last assistant message; absent while the turn waits for an answer. */
  responseMessage?: Message;
  /** The model recorded on the response (`metadata.model`), else the session's. */
  model: string;
  /** Estimated tokens of the turn's entries as stored now. */
  tokenCount: number;
  /** When its first entry was written (ms since epoch). */
  timestamp: number;
  /** Some turn of the session names this one as its parent. */
  hasChildren: boolean;
  /** Every tool call of the turn's assistant messages, in order. */
  toolCalls: ToolPart[];
  /** Beyond the seed: the ids of the entries the turn groups, in log order. */
  entryIds: string[];
}

export interface NormalTurn extends TurnBase {
  turnType: 'normal';
}

/**
 * A compaction (the pivot). Its query is one system request, its response an
 * assistant message with the summary, its model the summarizer's, its token count the summary's.
 */
export interface CompactionTurn extends TurnBase {
  turnType: 'compaction';
  summary: string;
  /** The turn holding the pivot's last summarized entry. */
  summarizedThroughTurnId: string;
  /** The turn holding the pivot's first kept entry; absent when it kept nothing. */
  firstKeptTurnId?: string;
  tokensBefore: number;
  tokensAfter: number;
}

export type Turn = NormalTurn | CompactionTurn;

/** The request text a compaction turn's query stands for (derived, never stored). */
export const COMPACTION_REQUEST = 'Summarize the conversation so far.';

/** An id that names no turn of the session. */
export class UnknownTurnError extends Error {
  override name = 'UnknownTurnError';
  constructor(
    readonly sessionId: string,
    readonly turnId: string,
  ) {
    super(
      `session ${sessionId} has no turn '${turnId}' (a turn's id is its first entry's id; list them with session.turns() or \`condense history ${sessionId}\`)`,
    );
  }
}

/** A compaction-only question asked about a normal turn. */
export class NotACompactionError extends Error {
  override name = 'NotACompactionError';
  constructor(
    readonly sessionId: string,
    readonly turnId: string,
  ) {
    super(`turn '${turnId}' of session ${sessionId} is a normal turn, not a compaction`);
  }
}
