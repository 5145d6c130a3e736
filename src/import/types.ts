import type { Entry } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { Message } from '../model/message.js';

export const FORMAT_NAMES = [
  'openai',
  'condense',
  'claude-code',
  'codex',
  'gemini-cli',
  'tau-bench',
  'swe-agent',
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

/** The header line of condense's own JSONL export. */
export interface CondenseSessionHeader {
  id: string;
  createdAt: number;
  metadata: JsonObject;
}

export interface ImportedSession {
  format: FormatName;
  sessionId?: string;
  /** Instructions that preceded the conversation (leading system/developer messages, base instructions). */
  system?: string;
  messages: ImportedMessage[];
  /** Things skipped or repaired while importing (results with no call, repeated call ids, UI-only lines). */
  warnings: string[];
  /** Only for condense's own format: the exact entries, so a re-import loses nothing (ids, pivots). */
  condense?: { session: CondenseSessionHeader; entries: Entry[] };
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
