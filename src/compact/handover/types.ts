/**
 * The handover: what an agent resuming after a compaction needs to carry on, drawn from the log
 * alone (no model). Built by buildHandover, stored in the pivot's details so that it survives any
 * number of compactions, rendered within a token budget by renderHandover.
 */

/** A user request, verbatim (capped at REQUEST_CHARS). */
export interface HandoverRequest {
  text: string;
  /** Typed while the agent was busy (Claude Code's queue). */
  queued?: boolean;
}

/** The request the agent works on, and what has been done for it since the user made it. */
export interface CurrentTask {
  /** The user's latest request, verbatim (never capped: Mistral Vibe repeats it word for word). */
  request: string;
  /** The request's message is in the kept tail: the model sees it there. */
  inTail: boolean;
  /** Done since the request: files changed, state-changing commands with their outcome. */
  done: string[];
  /** Calls made since the request that are not in `done` (reads, searches). */
  otherCalls: number;
}

export type PendingStatus = 'in_progress' | 'pending';

/** Work not finished: a todo-list item, a tracker item, a step of a plan the agent wrote. */
export interface PendingItem {
  text: string;
  status: PendingStatus;
  /** Where it comes from: "TodoWrite", "update_plan", "bd", "gh issue", "plan in <file>", "the agent's last message". */
  source: string;
}

export type NextStepSource = 'todo' | 'tracker' | 'agent' | 'plan' | 'request' | 'reply';

/** What to do next, drawn from the session: its text is the session's own words. */
export interface NextStep {
  text: string;
  source: NextStepSource;
}

/** A call whose last attempt failed and that nothing later superseded. */
export interface OpenFailure {
  label: string;
  /** "exit 1: <error lines>" or "error: …". */
  error: string;
}

export type CommandStatus = 'ok' | 'failed' | 'fixed';

/** A command that changed state, verified (test, build) or failed. */
export interface CommandRecord {
  label: string;
  status: CommandStatus;
  /** The later command that fixed it, when it was not this very one. */
  fixedBy?: string;
}

export type KeyValueKind = 'url' | 'commit' | 'pr' | 'issue' | 'id' | 'port';

/** A value a tool produced (an id, URL, commit hash, PR or issue number, port) and the call that did. */
export interface KeyValue {
  value: string;
  kind: KeyValueKind;
  /** The call's short label. */
  source: string;
}

export interface Handover {
  /** The working directory files are relative to, when the transcript records it. */
  cwd?: string;
  /** Every user request of the branch, oldest first, verbatim (each capped). */
  requests: HandoverRequest[];
  currentTask?: CurrentTask;
  /** Rules the user stated ("never …", "don't …"), verbatim. */
  constraints: string[];
  /** Decisions the user stated ("use X instead"), verbatim. */
  decisions: string[];
  pending: PendingItem[];
  nextStep?: NextStep;
  openFailures: OpenFailure[];
  /** Calls the user rejected or interrupted, and calls left without a result: labels only. */
  interrupted: string[];
  /** State-changing, verifying or failed commands, oldest first. */
  commands: CommandRecord[];
  /** Other commands run (reads, searches, listings): counted, not listed. */
  otherCommands: number;
  files: { modified: string[]; read: string[] };
  keyValues: KeyValue[];
  /** No tool was ever called: a conversation rather than a coding session. */
  chat: boolean;
}

/** The rendered sections, in the order the block shows them. */
export const HANDOVER_SECTIONS = [
  'task',
  'constraints',
  'next',
  'pending',
  'failures',
  'interrupted',
  'commands',
  'values',
  'decisions',
  'files',
  'requests',
] as const;
export type HandoverSection = (typeof HANDOVER_SECTIONS)[number];
