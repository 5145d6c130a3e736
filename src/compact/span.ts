import type { MessageEntry, PivotDetails } from '../model/entry.js';
import { messageText } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import { FAILURE_SEPARATOR, toolFailed, toolLabel } from './facts.js';
import { readHeaders } from './headers.js';
import { type CallOutcome, OutcomeTracker } from './outcomes.js';
import { homeOf, inferCwd, normalizePath, type PathBase } from './path-normal.js';
import { shellCommand, toolFiles } from './paths.js';
import { requestText } from './requests.js';
import type { UnitContext } from './salience.js';
import { turnRanges } from './turns.js';

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

export interface FileUse {
  path: string;
  read: boolean;
  modified: boolean;
  tools: Set<string>;
  uses: number;
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
}

const PAUSE_MS = 3_600_000;

function recordedCwd(span: readonly MessageEntry[]): string | undefined {
  for (let i = span.length - 1; i >= 0; i--) {
    const cwd = span[i]!.message.metadata?.cwd;
    if (typeof cwd === 'string' && cwd.startsWith('/')) return cwd;
  }
  return undefined;
}

function workdirOf(part: ToolPart): string | undefined {
  const input = part.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const w = input.workdir ?? input.cwd;
  return typeof w === 'string' && w.startsWith('/') ? w : undefined;
}

/**
 * One pass over the span. `previous` (the pivot's details) brings the failures still open and the
 * working directory from before the span.
 */
export function analyzeSpan(span: readonly MessageEntry[], previous?: PivotDetails): SpanAnalysis {
  const a: SpanAnalysis = {
    messages: [],
    turns: [],
    userTexts: [],
    files: new Map(),
    toolCounts: new Map(),
    toolCalls: 0,
    outcomes: [],
    pendingCalls: [],
    lastAssistant: '',
    lastActions: [],
    base: {},
    multiDay: span.length > 0 && dayOf(span[0]!.createdAt) !== dayOf(span.at(-1)!.createdAt),
  };
  const raw: Array<{ path: string; tool: string; modified: boolean }> = [];
  const workdirs = new Map<string, number>();
  const tracker = new OutcomeTracker();
  const parsed = new Map<string, ReturnType<typeof toolFiles>>();
  for (const f of previous?.failedCommands ?? []) tracker.carry(f);
  let lastCalls: ToolPart[] = [];
  turnRanges(span).forEach(({ start, end }, turn) => {
    const digest: TurnDigest = { request: -1, tools: new Map(), pending: 0 };
    for (let i = start; i < end; i++) {
      const entry = span[i]!;
      const m = entry.message;
      if (m.role === 'user') {
        const text = requestText(entry);
        if (text === '') continue;
        if (digest.request < 0) digest.request = a.userTexts.length;
        a.userTexts.push(text);
        addMessage(a, span, i, turn, 'user', text);
        continue;
      }
      if (m.role !== 'assistant') continue;
      const calls: ToolPart[] = [];
      for (const p of m.parts) {
        if (p.type !== 'tool') continue;
        calls.push(p);
        a.toolCalls++;
        a.toolCounts.set(p.name, (a.toolCounts.get(p.name) ?? 0) + 1);
        const failed = toolFailed(p);
        const t = digest.tools.get(p.name) ?? { calls: 0, failed: 0 };
        t.calls++;
        if (failed) t.failed++;
        digest.tools.set(p.name, t);
        // Agents repeat calls (the same test, the same file): each distinct input is parsed once.
        const command = shellCommand(p);
        const key =
          command ?? `${p.name}\u0000${typeof p.input === 'string' ? p.input : JSON.stringify(p.input)}`;
        let files = parsed.get(key);
        if (files === undefined) {
          files = toolFiles(p);
          parsed.set(key, files);
        }
        for (const path of files.read) raw.push({ path, tool: p.name, modified: false });
        // A call that failed did not change the file: it only looked at it.
        for (const path of files.modified) raw.push({ path, tool: p.name, modified: !failed });
        const w = workdirOf(p);
        if (w) workdirs.set(w, (workdirs.get(w) ?? 0) + 1);
        if (p.state === 'pending' || p.state === 'running') {
          digest.pending++;
          a.pendingCalls.push(toolLabel(p));
        } else tracker.note(p, i);
      }
      const text = messageText(m).trim();
      if (text !== '') addMessage(a, span, i, turn, 'assistant', text);
      if (text !== '' || calls.length > 0) {
        a.lastAssistant = text;
        lastCalls = calls;
      }
    }
    a.turns.push(digest);
  });
  readMessageHeaders(a);
  a.outcomes = tracker.outcomes();
  a.lastActions = lastCalls.map((p) => toolLabel(p, 200));
  const mostUsedWorkdir = [...workdirs].sort((x, y) => y[1] - x[1])[0]?.[0];
  const carriedCwd = typeof previous?.extra?.cwd === 'string' ? previous.extra.cwd : undefined;
  const cwd = recordedCwd(span) ?? carriedCwd ?? mostUsedWorkdir ?? inferCwd(raw.map((r) => r.path));
  a.base = cwd === undefined ? {} : { cwd, home: homeOf(cwd) };
  for (const r of raw) noteFile(a.files, normalizePath(r.path, a.base), r.tool, r.modified);
  return a;
}

/**
 * Speakers and times written into the texts (see headers.ts) become the digests' own: the words
 * alone are weighed and quoted, and pauses are read from the times the texts name.
 */
function readMessageHeaders(a: SpanAnalysis): void {
  const headers = readHeaders(a.messages.map((m) => m.text));
  if (headers.every((h) => h === null)) return;
  a.messages.forEach((m, i) => {
    const h = headers[i];
    if (!h) return;
    const text = m.text.slice(h.length).trim();
    if (text === '') return;
    m.text = text;
    if (h.who) m.who = h.who;
    if (h.at !== undefined) m.at = h.at;
  });
  a.messages.forEach((m, i) => {
    const prev = a.messages[i - 1];
    m.ctx.opensSession = prev === undefined || m.at - prev.at >= PAUSE_MS;
    m.ctx.closesSession = false;
    if (prev && m.ctx.opensSession) prev.ctx.closesSession = true;
    m.ctx.answersQuestion = prev !== undefined && prev.role !== m.role && prev.text.includes('?');
  });
  const first = a.messages[0];
  const last = a.messages.at(-1);
  if (first && last) a.multiDay = a.multiDay || dayOf(first.at) !== dayOf(last.at);
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function addMessage(
  a: SpanAnalysis,
  span: readonly MessageEntry[],
  i: number,
  turn: number,
  role: 'user' | 'assistant',
  text: string,
): void {
  const entry = span[i]!;
  const prev = a.messages.at(-1);
  const name = entry.message.metadata?.name;
  const opens = prev === undefined || entry.createdAt - prev.at >= PAUSE_MS;
  if (prev !== undefined && opens) prev.ctx.closesSession = true;
  a.messages.push({
    index: i,
    turn,
    role,
    who: typeof name === 'string' && name !== '' ? name : role === 'user' ? 'User' : 'Assistant',
    at: entry.createdAt,
    text,
    queued: entry.message.metadata?.queued === true,
    ctx: {
      answersQuestion: prev !== undefined && prev.role !== role && prev.text.includes('?'),
      opensSession: opens,
      closesSession: false,
    },
  });
}

function noteFile(files: Map<string, FileUse>, path: string, tool: string, modified: boolean): void {
  if (path === '.' || path === '') return;
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

/** Calls whose latest run failed, as "label → why", oldest first. */
export function openFailures(outcomes: readonly CallOutcome[]): string[] {
  return outcomes
    .filter((o) => o.status === 'failed')
    .map((o) => `${o.label}${FAILURE_SEPARATOR}${o.error ?? 'failed'}`);
}

/** Open failures after a list of entries, given the ones still open before them. */
export function unresolvedFailures(
  entries: readonly MessageEntry[],
  previous: readonly string[] = [],
): string[] {
  return openFailures(
    analyzeSpan(entries, { filesRead: [], filesModified: [], failedCommands: [...previous] }).outcomes,
  );
}
