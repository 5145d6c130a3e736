import { isMarkerOnly, isTurnStart } from '../compact/turns.js';
import { type CompactionEntry, type Entry, isMessageEntry, type MessageEntry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import { COMPACTION_REQUEST, type CompactionTurn, type NormalTurn, type Turn } from './turn.js';

/** A session's turns and the maps that make each traversal step O(1). */
export interface TurnIndex {
  sessionId: string;
  /** In log order. */
  turns: Turn[];
  /** Turn id → index in `turns`. */
  position: Map<string, number>;
  /** Entry id → the id of the turn holding it. */
  turnOfEntry: Map<string, string>;
  /** Entry id → the entry. */
  entries: Map<string, Entry>;
}

/**
 * Whether `entry` opens a new turn: a user's request, a compaction entry, whatever follows one (the
 * rest of a turn a compaction interrupted is a turn of its own), or an entry that does not continue
 * the one before it. The SQL view agent_turns applies the same rule.
 */
export function startsTurn(entry: Entry, previous: Entry | undefined): boolean {
  if (previous === undefined || entry.parentId !== previous.id) return true;
  if (entry.kind === 'compaction' || previous.kind === 'compaction') return true;
  return isTurnStart(entry);
}

/** Groups a log (any order: it is sorted by seq) into turns, in one pass plus one for the links. */
export function deriveTurns(log: readonly Entry[], sessionId: string, model: string): TurnIndex {
  const ordered = [...log].sort((a, b) => a.seq - b.seq);
  const groups: Entry[][] = [];
  ordered.forEach((entry, i) => {
    if (startsTurn(entry, ordered[i - 1])) groups.push([entry]);
    else groups.at(-1)!.push(entry);
  });
  const turnOfEntry = new Map<string, string>();
  for (const group of groups) for (const e of group) turnOfEntry.set(e.id, group[0]!.id);
  const turns = groups.map((group) => buildTurn(group, turnOfEntry, model));
  const parents = new Set(turns.map((t) => t.parentTurnId));
  for (const turn of turns) turn.hasChildren = parents.has(turn.id);
  return {
    sessionId,
    turns,
    position: new Map(turns.map((t, i) => [t.id, i])),
    turnOfEntry,
    entries: new Map(ordered.map((e) => [e.id, e])),
  };
}

function buildTurn(group: Entry[], turnOfEntry: Map<string, string>, model: string): Turn {
  const first = group[0]!;
  const base = {
    id: first.id,
    ...(first.parentId !== null && turnOfEntry.has(first.parentId)
      ? { parentTurnId: turnOfEntry.get(first.parentId)! }
      : {}),
    timestamp: first.createdAt,
    hasChildren: false,
    entryIds: group.map((e) => e.id),
  };
  if (first.kind === 'compaction') return compactionTurn(first, base, turnOfEntry);
  const messages = group.filter(isMessageEntry);
  const firstAnswer = messages.findIndex((m) => m.message.role === 'assistant');
  const asked = firstAnswer < 0 ? messages : messages.slice(0, firstAnswer);
  const response = messages.findLast((m) => m.message.role === 'assistant')?.message;
  const recorded = response?.metadata?.model;
  const turn: NormalTurn = {
    ...base,
    turnType: 'normal',
    queryMessages: asked.filter((m) => !isMarkerOnly(m)).map((m) => m.message),
    ...(response ? { responseMessage: response } : {}),
    model: typeof recorded === 'string' ? recorded : model,
    tokenCount: group.reduce((sum, e) => sum + e.tokens, 0),
    toolCalls: messages.flatMap(toolCallsOf),
  };
  return turn;
}

function toolCallsOf(entry: MessageEntry): ToolPart[] {
  const { message } = entry;
  return message.role === 'assistant' ? message.parts.filter((p): p is ToolPart => p.type === 'tool') : [];
}

function compactionTurn(
  entry: CompactionEntry,
  base: Pick<CompactionTurn, 'id' | 'parentTurnId' | 'timestamp' | 'hasChildren' | 'entryIds'>,
  turnOfEntry: Map<string, string>,
): CompactionTurn {
  const { pivot } = entry;
  const request: Message = {
    role: 'system',
    parts: [{ type: 'text', text: COMPACTION_REQUEST }],
    metadata: { synthetic: true },
  };
  // An id the session does not hold (a fork made before forks kept their history) stays as written.
  const turnOf = (id: string) => turnOfEntry.get(id) ?? id;
  return {
    ...base,
    turnType: 'compaction',
    queryMessages: [request],
    responseMessage: {
      role: 'assistant',
      parts: [{ type: 'text', text: pivot.summary }],
      metadata: { summary: true },
    },
    model: pivot.model ?? pivot.summarizer,
    tokenCount: entry.tokens,
    toolCalls: [],
    summary: pivot.summary,
    summarizedThroughTurnId: turnOf(pivot.summarizedThroughId),
    ...(pivot.firstKeptId !== null ? { firstKeptTurnId: turnOf(pivot.firstKeptId) } : {}),
    tokensBefore: pivot.tokensBefore,
    tokensAfter: pivot.tokensAfter,
  };
}
