import { posix } from 'node:path';
import type { MessageEntry, PivotDetails } from '../model/entry.js';
import { messageText } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import { callFailed, FAILURE_SEPARATOR, toolLabel } from './facts.js';
import { type CommandKind, callDirectory, commandKind, rejectedCall } from './handover/calls.js';
import { type FileUse, notePaths, type PathNote, realFiles } from './handover/files.js';
import { type TodoItem, TrackerLedger, todoList, type WrittenPlan, writtenPlan } from './handover/todos.js';
import type { KeyValue } from './handover/types.js';
import { valuesIn } from './handover/values.js';
import { readHeaders } from './headers.js';
import { type CallOutcome, callIdentity, OutcomeTracker } from './outcomes.js';
import { homeOf, inferCwd, type PathBase } from './path-normal.js';
import { shellCommand } from './paths.js';
import { requestText } from './requests.js';
import type { UnitContext } from './salience.js';
import { isTurnStart } from './turns.js';

export type { FileUse } from './handover/files.js';

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

/** Pairs of strings earlier details carried under `extra[key]`. */
function carriedPairs(details: PivotDetails | undefined, key: string): Array<[string, string]> {
  const v = details?.extra?.[key];
  if (!Array.isArray(v)) return [];
  return v.filter(
    (x): x is [string, string] => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'string',
  );
}

const PAUSE_MS = 3_600_000;

/** Commands of issue trackers the handover follows (see TrackerLedger). */
const TRACKERS = /\b(?:bd|beads|gh)\s/;

/**
 * Tools whose output is content (a file's lines, an edited snippet, search results, a sub-agent's
 * report), not a result they produced: long outputs of theirs are not read for values.
 */
const READING_TOOLS =
  /^(?:read|glob|grep|ls|view|read_file|read_many_files|list_directory|search_file_content|glob_search|web_?fetch|web_?search|task|agent|notebookread|todowrite|todoread|update_plan|write_todos|write|edit|multiedit|notebookedit|write_file|replace|edit_file|create_file|apply_patch|str_replace_based_edit_tool|str_replace_editor)$/i;

/** The label of a call, or of a poll named after the background command that owns it. */
function valueSource(p: ToolPart, owner: string | undefined): string {
  return owner === undefined ? toolLabel(p) : toolLabel({ ...p, name: 'Bash', input: { command: owner } });
}

/**
 * The values a successful output holds (see valuesIn). A poll's output is its background
 * command's: judged by that command, and named after it. `kinds` keeps each command's kind:
 * agents run the same few commands again and again. Returns the characters the values hold.
 */
function noteValues(
  a: SpanAnalysis,
  p: ToolPart,
  command: string | undefined,
  owner: string | undefined,
  kinds: Map<string, CommandKind>,
): number {
  const run = command ?? owner;
  let significant: boolean;
  if (run === undefined) significant = !READING_TOOLS.test(p.name);
  else {
    let kind = kinds.get(run);
    if (kind === undefined) {
      kind = commandKind(run);
      kinds.set(run, kind);
    }
    significant = kind !== 'read';
  }
  const found = valuesIn(toolOutputText(p), significant);
  if (found.length === 0) return 0;
  const source = valueSource(p, owner);
  let chars = 0;
  for (const { value, kind } of found) {
    a.values.push({ value, kind, source });
    chars += value.length + source.length;
  }
  return chars;
}

/**
 * One pass over the span. `previous` (the pivot's details) brings the failures still open and the
 * working directory from before the span; `tail` (the messages kept verbatim after the summary)
 * settles failures that a later call there fixed, so that the summary does not call them open.
 */
export function analyzeSpan(
  span: readonly MessageEntry[],
  previous?: PivotDetails,
  tail: readonly MessageEntry[] = [],
): SpanAnalysis {
  const reader = new SpanReader(previous);
  reader.read(span);
  return reader.finish(tail);
}

/**
 * analyzeSpan as a fold: a span read a page at a time (a window too long to hold, streamed from
 * its store) gives the same analysis as the whole span read at once, and each page can be let go
 * once read. Positions are counted from the span's first entry.
 */
export class SpanReader {
  private readonly a: SpanAnalysis = {
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
    multiDay: false,
    rejected: [],
    lastRequestAt: -1,
    lastAssistantAt: -1,
    modifiedSinceRequest: [],
    callsSinceRequest: 0,
    trackers: new TrackerLedger(),
    plans: new Map(),
    values: [],
    background: [],
  };
  // The notes of repeated calls are the same objects: where each was made is kept beside them.
  private readonly notes: PathNote[] = [];
  private readonly notedAt: number[] = [];
  private readonly workdirs = new Map<string, number>();
  private readonly tracker = new OutcomeTracker();
  private readonly parsed = new PathNotes();
  private readonly kinds = new Map<string, CommandKind>();
  private lastCalls: ToolPart[] = [];
  private readonly carriedCwd: string | undefined;
  // The directory relative paths start from: the one the transcript recorded last (Claude Code
  // records it on every line, so a `cd` the agent made is seen), an explicit one per call first.
  private here: string | undefined;
  /** The first directory the transcript recorded: where the session started. */
  private firstCwd: string | undefined;
  private digest: TurnDigest | undefined;
  private turn = -1;
  /** Entries read so far: the next one's position. */
  private length = 0;
  private firstAt = 0;
  private lastAt = 0;
  /**
   * Characters of what it keeps: texts, values, calls' identities and failed calls' outputs,
   * counted per call with repeats, so never fewer than it keeps.
   */
  private heldChars = 0;
  private finished = false;

  constructor(previous?: PivotDetails) {
    for (const f of previous?.failedCommands ?? []) this.tracker.carry(f);
    for (const [id, label] of carriedPairs(previous, 'background')) this.tracker.carryBackground(id, label);
    this.carriedCwd = typeof previous?.extra?.cwd === 'string' ? previous.extra.cwd : undefined;
    this.here = this.carriedCwd;
  }

  /** About how many tokens of what it read the analysis holds, at most (four characters to a token). */
  heldTokens(): number {
    return Math.ceil(this.heldChars / 4);
  }

  /** Reads the span's next entries, in log order. */
  read(entries: readonly MessageEntry[]): void {
    if (this.finished) throw new Error('SpanReader: read after finish');
    for (const entry of entries) this.readEntry(entry);
  }

  private readEntry(entry: MessageEntry): void {
    const { a, tracker } = this;
    const i = this.length++;
    if (i === 0) this.firstAt = entry.createdAt;
    this.lastAt = entry.createdAt;
    if (i === 0 || isTurnStart(entry)) {
      if (this.digest !== undefined) a.turns.push(this.digest);
      this.digest = { request: -1, tools: new Map(), pending: 0 };
      this.turn++;
    }
    const digest = this.digest!;
    const m = entry.message;
    const recorded = m.metadata?.cwd;
    if (typeof recorded === 'string' && recorded.startsWith('/')) {
      this.here = recorded;
      this.firstCwd ??= recorded;
    }
    if (m.role === 'user') {
      const text = requestText(entry);
      if (text === '') return;
      if (digest.request < 0) digest.request = a.userTexts.length;
      a.userTexts.push(text);
      a.lastRequestAt = i;
      a.callsSinceRequest = 0;
      addMessage(a, entry, i, this.turn, 'user', text);
      this.heldChars += text.length;
      return;
    }
    if (m.role !== 'assistant') return;
    const calls: ToolPart[] = [];
    for (const p of m.parts) {
      if (p.type !== 'tool') continue;
      calls.push(p);
      const failed = callFailed(p);
      noteCall(a, digest, p, failed);
      const command = shellCommand(p);
      if (p.state === 'pending' || p.state === 'running') {
        digest.pending++;
        a.pendingCalls.push(toolLabel(p));
        continue;
      }
      if (rejectedCall(p)) {
        a.rejected.push(callTitle(p) ?? toolLabel(p));
        continue;
      }
      const explicit = callDirectory(p, command);
      const dir =
        explicit === undefined || (!explicit.startsWith('/') && this.here !== undefined)
          ? relativeTo(this.here, explicit)
          : explicit;
      const identity = callIdentity(p, command);
      // The calls are remembered by identity (outcomes, paths), a failed one with its output.
      this.heldChars += identity.length + (failed ? toolOutputText(p).length : 0);
      const input =
        command === undefined && typeof p.input === 'string' ? `${p.name}\u0000${p.input}` : identity;
      for (const n of this.parsed.of(p, command, failed, dir, input)) {
        this.notes.push(n);
        this.notedAt.push(i);
      }
      if (explicit?.startsWith('/')) this.workdirs.set(explicit, (this.workdirs.get(explicit) ?? 0) + 1);
      const owner = tracker.ownerOf(p);
      tracker.note(p, i, identity, failed);
      const list = todoList(p);
      if (list) a.todos = { source: p.name, items: list };
      const plan = writtenPlan(p);
      if (plan) a.plans.set(plan.path, plan);
      if (command !== undefined && TRACKERS.test(command)) a.trackers.note(command, p);
      if (!failed && p.state === 'completed') this.heldChars += noteValues(a, p, command, owner, this.kinds);
    }
    const text = messageText(m).trim();
    if (text !== '') {
      addMessage(a, entry, i, this.turn, 'assistant', text);
      this.heldChars += text.length;
    }
    if (text !== '' || calls.length > 0) {
      a.lastAssistant = text;
      a.lastAssistantAt = i;
      this.lastCalls = calls;
    }
  }

  /** The analysis of everything read, with `tail` settling what it fixed. Once: it ends the reading. */
  finish(tail: readonly MessageEntry[] = []): SpanAnalysis {
    if (this.finished) throw new Error('SpanReader: finished already');
    this.finished = true;
    const { a, tracker, notes, notedAt } = this;
    if (this.digest !== undefined) a.turns.push(this.digest);
    this.digest = undefined;
    a.multiDay = this.length > 0 && dayOf(this.firstAt) !== dayOf(this.lastAt);
    readMessageHeaders(a);
    tail.forEach((entry, i) => {
      if (entry.message.role !== 'assistant') return;
      for (const p of entry.message.parts) if (p.type === 'tool') tracker.settle(p, this.length + i);
    });
    a.outcomes = tracker.outcomes();
    a.background = tracker.openBackground();
    a.lastActions = this.lastCalls.map((p) => toolLabel(p, 200));
    const mostUsedWorkdir = [...this.workdirs].sort((x, y) => y[1] - x[1])[0]?.[0];
    // Files are named relative to where the session started, the same way from one summary to the next.
    const cwd =
      this.carriedCwd ??
      this.firstCwd ??
      mostUsedWorkdir ??
      inferCwd(notes.filter((n) => n.dir === undefined).map((n) => n.path));
    a.base = cwd === undefined ? {} : { cwd, home: homeOf(cwd) };
    a.files = realFiles(notes, a.base);
    const since = realFiles(
      notes.filter((n, k) => notedAt[k]! >= a.lastRequestAt && n.modified && !n.failed),
      a.base,
    );
    a.modifiedSinceRequest = [...since.keys()].filter((f) => a.files.get(f)?.modified === true);
    return a;
  }
}

/**
 * notePaths once per distinct call: agents repeat calls (the same test, the same file). Keyed by
 * the call's folder, then its command (or tool and input), without joining them into one string.
 */
class PathNotes {
  private readonly byDir = [
    new Map<string, Map<string, PathNote[]>>(),
    new Map<string, Map<string, PathNote[]>>(),
  ];
  /** `key`: the call's command, else its tool and input (a string input as it is). */
  of(
    p: ToolPart,
    command: string | undefined,
    failed: boolean,
    dir: string | undefined,
    key: string,
  ): PathNote[] {
    const dirs = this.byDir[failed ? 1 : 0]!;
    let calls = dirs.get(dir ?? '');
    if (calls === undefined) {
      calls = new Map();
      dirs.set(dir ?? '', calls);
    }
    let noted = calls.get(key);
    if (noted === undefined) {
      noted = notePaths(p, command, failed, dir);
      calls.set(key, noted);
    }
    return noted;
  }
}

/** A call's folder: its own (`cd sub &&`, a relative workdir) from the recorded one, else the recorded one. */
function relativeTo(recorded: string | undefined, own: string | undefined): string | undefined {
  if (own === undefined) return recorded;
  return recorded === undefined ? own : posix.join(recorded, own);
}

/** A call by the title its input gives (`js "Open local UI"`, `Task "Explore the repo"`), if any. */
function callTitle(p: ToolPart): string | undefined {
  const input = p.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const title = input.title ?? input.description;
  return typeof title === 'string' && title !== '' ? `${p.name} "${title}"` : undefined;
}

/** Counts a call (`failed`: its callFailed) in the span's and its turn's tallies. */
function noteCall(a: SpanAnalysis, digest: TurnDigest, p: ToolPart, failed: boolean): void {
  a.toolCalls++;
  a.callsSinceRequest++;
  a.toolCounts.set(p.name, (a.toolCounts.get(p.name) ?? 0) + 1);
  const t = digest.tools.get(p.name) ?? { calls: 0, failed: 0 };
  t.calls++;
  if (failed) t.failed++;
  digest.tools.set(p.name, t);
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
  entry: MessageEntry,
  i: number,
  turn: number,
  role: 'user' | 'assistant',
  text: string,
): void {
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
