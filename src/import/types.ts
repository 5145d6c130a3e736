import type { Entry } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { Message } from '../model/message.js';
import type { SessionState } from '../model/session.js';

export const FORMAT_NAMES = [
  'openai',
  'condense',
  'claude-code',
  'codex',
  'gemini-cli',
  'tau-bench',
  'swe-agent',
  'openhands',
  'openai-responses',
  'anthropic',
] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export interface ImportedMessage {
  message: Message;
  /** The provider's usage for the step that produced this message, exactly as the source recorded it. */
  usage?: unknown;
  model?: string;
  /** Milliseconds since epoch, when the source has a timestamp. */
  createdAt?: number;
}

/**
 * A compaction the source agent ran: from here on it sent `summary` in place of everything before.
 * It becomes a pivot, so the view starts there while the earlier messages stay in the log.
 */
export interface ImportedCompaction {
  /** How many of the session's messages came before it (at least 1: a pivot summarizes something). */
  at: number;
  /** The summary exactly as the agent sent it to the model. */
  summary: string;
  /** The prompt size the agent recorded when it compacted (Claude Code's compactMetadata.preTokens). */
  tokensBefore?: number;
  /** True when the agent compacted on its own (budget), false when asked to or not recorded. */
  auto: boolean;
  createdAt?: number;
  /** The source's own record of the compaction (e.g. compactMetadata), kept with the pivot. */
  source?: JsonObject;
}

/** The running figures an export carries because the log cannot rebuild them. */
export type ExportedState = Pick<SessionState, 'lastUsage' | 'addedSinceUsage' | 'calibration'>;

/** The header line of condense's own JSONL export. */
export interface CondenseSessionHeader {
  id: string;
  createdAt: number;
  metadata: JsonObject;
  /** The last reported usage and the calibration learned (absent in exports older than them). */
  state?: ExportedState;
}

export interface ImportedSession {
  format: FormatName;
  sessionId?: string;
  /** Instructions that preceded the conversation (leading system/developer messages, base instructions). */
  system?: string;
  messages: ImportedMessage[];
  /** The agent's own compactions, in log order (absent when it ran none). */
  compactions?: ImportedCompaction[];
  /** Things skipped or repaired while importing (repeated call ids, UI-only lines). */
  warnings: string[];
  /** Content kept in another form than the file had it (present when any was): reported, refused by --strict. */
  issues?: ImportIssue[];
  /** Only for condense's own format: the exact entries, so a re-import loses nothing (ids, pivots). */
  condense?: { session: CondenseSessionHeader; entries: Entry[] };
}

/**
 * Content of the file that could not be kept as the file had it: a tool result answering no call
 * (kept as a user text message), bytes that are not UTF-8 (kept as U+FFFD). Never dropped silently:
 * the CLI prints each kind with its count and lines, and `--strict` refuses the file instead.
 */
export interface ImportIssue {
  kind: 'orphan-result' | 'invalid-utf8';
  /** What happened to this one, e.g. "result for unknown tool call c9 kept as a user message". */
  detail: string;
  /** How many instances this one stands for (bytes replaced on the line); 1 when absent. */
  count?: number;
  line?: number;
  field?: string;
}

/**
 * Where the value being parsed came from. `at` is the field path of the value inside the file (for
 * nested parses such as a tau-bench run's `traj`); `line` the 1-based JSONL line; `lineOf` maps a
 * field path of a whole-file JSON value to its line, so errors in JSON files can name a line too.
 */
export interface ImportWhere {
  file?: string;
  line?: number;
  at?: string;
  lineOf?: (field: string) => number | undefined;
}
