import type { FileUse } from './handover/files.js';
import type { TodoItem, TrackerLedger, WrittenPlan } from './handover/todos.js';
import type { KeyValue } from './handover/types.js';
import type { CallOutcome } from './outcomes.js';
import type { PathBase } from './path-normal.js';
import type { UnitContext } from './salience.js';

/** One message with words of its own: a user's request or an assistant's text. */
export interface MessageDigest {
  /** Position in the span. */
  index: number;
  turn: number;
  role: 'user' | 'assistant';
  /** The speaker's name (`metadata.name`) or the role. */
  who: string;
  at: number;
  text: string;
  /** A message the user typed while the agent was busy (Claude Code's queue). */
  queued: boolean;
  ctx: UnitContext;
}

/** One turn of the summarized span: its tools, and the request that opened it (index into requests, or -1). */
export interface TurnDigest {
  request: number;
  tools: Map<string, { calls: number; failed: number }>;
  pending: number;
}

/** Everything the details and the extractive summary need from a span, gathered in one pass. */
export interface SpanAnalysis {
  messages: MessageDigest[];
  turns: TurnDigest[];
  /** The user's requests, verbatim, oldest first. */
  userTexts: string[];
  /** Files by their normalized path (see normalizePath). */
  files: Map<string, FileUse>;
  toolCounts: Map<string, number>;
  toolCalls: number;
  /** Every distinct call and how its runs ended, in order of its latest run. */
  outcomes: CallOutcome[];
  pendingCalls: string[];
  lastAssistant: string;
  lastActions: string[];
  /** The working directory the span's paths are relative to, when known. */
  base: PathBase;
  /** The span covers more than one calendar day (dates then matter). */
  multiDay: boolean;
  /** Calls the user rejected or interrupted, by label: no failures, and their text no instruction. */
  rejected: string[];
  /** Position (in the span) of the newest user request, or -1. */
  lastRequestAt: number;
  /** Position of the newest assistant message with text or calls, or -1. */
  lastAssistantAt: number;
  /** Files changed at or after `lastRequestAt`, normalized. */
  modifiedSinceRequest: string[];
  /** Calls made at or after `lastRequestAt`. */
  callsSinceRequest: number;
  /** The newest todo list a todo tool set (TodoWrite, update_plan, write_todos), with the tool's name. */
  todos?: { source: string; items: TodoItem[] };
  trackers: TrackerLedger;
  /** Plan documents the agent wrote, by path as written. */
  plans: Map<string, WrittenPlan>;
  /** Values successful tool outputs produced (ids, URLs, hashes, ports), oldest first. */
  values: KeyValue[];
  /** Processes started in the background and not seen ending: [id, command]. */
  background: Array<[string, string]>;
}
