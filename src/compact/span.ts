import type { MessageEntry } from '../model/entry.js';
import { messageText } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import { FAILURE_SEPARATOR, failureNote, toolFailed, toolLabel, userText } from './facts.js';
import { shellCommand, toolFiles } from './paths.js';
import { turnRanges } from './turns.js';

/** One turn of the summarized span, as the timeline shows it. */
export interface TurnDigest {
  request: string;
  tools: Map<string, { calls: number; failed: number }>;
  pending: number;
  outcome: string;
}

export interface FileUse {
  path: string;
  read: boolean;
  modified: boolean;
  tools: Set<string>;
  uses: number;
}

/**
 * Everything the details and the extractive summary need from the summarized span, gathered in
 * one pass so that each tool part is examined once (a 100,000-message span stays fast).
 */
export interface SpanAnalysis {
  turns: TurnDigest[];
  /** User-written texts, oldest first. */
  userTexts: string[];
  files: Map<string, FileUse>;
  toolCounts: Map<string, number>;
  /** Shell commands, distinct, in order of last use. */
  commands: string[];
  /** Latest run of each distinct call (name + input), in order of last run. */
  outcomes: Map<string, { part: ToolPart; failed: boolean }>;
  pendingCalls: string[];
  lastAssistant: string;
  lastActions: string[];
}

function noteFile(files: Map<string, FileUse>, path: string, tool: string, modified: boolean): void {
  let use = files.get(path);
  if (use === undefined) {
    use = { path, read: false, modified: false, tools: new Set<string>(), uses: 0 };
    files.set(path, use);
  }
  if (modified) use.modified = true;
  else use.read = true;
  use.tools.add(tool);
  use.uses++;
}

function callKey(part: ToolPart): string {
  return `${part.name}\u0000${JSON.stringify(part.input) ?? ''}`;
}

/** What a call's name and input say, worked out once per distinct call in a span. */
interface CallFacts {
  files: ReturnType<typeof toolFiles>;
  /** The readable label of a shell call; undefined for other tools. */
  shellLabel: string | undefined;
}

function callFacts(cache: Map<string, CallFacts>, key: string, part: ToolPart): CallFacts {
  let facts = cache.get(key);
  if (facts === undefined) {
    facts = {
      files: toolFiles(part),
      shellLabel: shellCommand(part) === undefined ? undefined : toolLabel(part),
    };
    cache.set(key, facts);
  }
  return facts;
}

function noteTool(
  a: SpanAnalysis,
  part: ToolPart,
  digest: TurnDigest,
  cache: Map<string, CallFacts>,
): boolean {
  a.toolCounts.set(part.name, (a.toolCounts.get(part.name) ?? 0) + 1);
  const failed = toolFailed(part);
  const t = digest.tools.get(part.name) ?? { calls: 0, failed: 0 };
  t.calls++;
  if (failed) t.failed++;
  digest.tools.set(part.name, t);
  // Agents repeat calls (the same test command, the same file): their input is parsed once.
  const key = callKey(part);
  const { files, shellLabel } = callFacts(cache, key, part);
  for (const p of files.read) noteFile(a.files, p, part.name, false);
  // A call that failed did not change the file: it only looked at it.
  for (const p of files.modified) noteFile(a.files, p, part.name, !failed);
  if (shellLabel !== undefined) a.commands.push(shellLabel);
  if (part.state === 'pending' || part.state === 'running') {
    digest.pending++;
    a.pendingCalls.push(toolLabel(part));
  } else {
    a.outcomes.delete(key);
    a.outcomes.set(key, { part, failed });
  }
  return failed;
}

export function analyzeSpan(span: readonly MessageEntry[]): SpanAnalysis {
  const a: SpanAnalysis = {
    turns: [],
    userTexts: [],
    files: new Map(),
    toolCounts: new Map(),
    commands: [],
    outcomes: new Map(),
    pendingCalls: [],
    lastAssistant: '',
    lastActions: [],
  };
  let lastCalls: ToolPart[] = [];
  const cache = new Map<string, CallFacts>();
  for (const { start, end } of turnRanges(span)) {
    const digest: TurnDigest = { request: userText(span[start]!), tools: new Map(), pending: 0, outcome: '' };
    for (let i = start; i < end; i++) {
      const own = userText(span[i]!);
      if (own.trim() !== '') a.userTexts.push(own);
      const m = span[i]!.message;
      if (m.role !== 'assistant') continue;
      const calls: ToolPart[] = [];
      for (const p of m.parts) {
        if (p.type !== 'tool') continue;
        noteTool(a, p, digest, cache);
        calls.push(p);
      }
      const text = messageText(m).trim();
      if (text !== '') digest.outcome = text;
      if (text !== '' || calls.length > 0) {
        a.lastAssistant = text;
        lastCalls = calls;
      }
    }
    a.turns.push(digest);
  }
  // Distinct commands, each at its last use.
  a.commands = [...new Set(a.commands.reverse())].reverse();
  a.lastActions = lastCalls.map((p) => toolLabel(p, 200));
  return a;
}

/**
 * Calls whose latest run failed, as "label → exit 1", oldest first: failures carried from earlier
 * summaries that the span did not run again, then the span's own.
 */
export function unresolvedAfter(analysis: SpanAnalysis, previous: readonly string[] = []): string[] {
  const latest = [...analysis.outcomes.values()];
  const failures = latest
    .filter((o) => o.failed)
    .map((o) => `${toolLabel(o.part)}${FAILURE_SEPARATOR}${failureNote(o.part)}`);
  if (previous.length === 0) return failures;
  const rerun = new Set(latest.map((o) => toolLabel(o.part)));
  const carried = previous.filter((f) => {
    const at = f.lastIndexOf(FAILURE_SEPARATOR);
    return !rerun.has(at < 0 ? f : f.slice(0, at));
  });
  return [...carried, ...failures];
}

/** Unresolved failures of a list of entries (see unresolvedAfter). */
export function unresolvedFailures(
  entries: readonly MessageEntry[],
  previous: readonly string[] = [],
): string[] {
  return unresolvedAfter(analyzeSpan(entries), previous);
}
