import type { MessageEntry, PivotDetails } from '../model/entry.js';
import { messageText } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import { callFailed, FAILURE_SEPARATOR, toolLabel } from './facts.js';
import { type CommandKind, callDirectory, rejectedCall } from './handover/calls.js';
import { type PathNote, realFiles } from './handover/files.js';
import { TrackerLedger, todoList, writtenPlan } from './handover/todos.js';
import { type CallOutcome, callIdentity, OutcomeTracker } from './outcomes.js';
import { homeOf, inferCwd } from './path-normal.js';
import { shellCommand } from './paths.js';
import { requestText } from './requests.js';
import { callTitle, noteCall, noteValues, PathNotes, relativeTo, TRACKERS } from './span-calls.js';
import { addMessage, dayOf, readMessageHeaders } from './span-messages.js';
import type { SpanAnalysis, TurnDigest } from './span-types.js';
import { isTurnStart } from './turns.js';

export type { FileUse } from './handover/files.js';
export type { MessageDigest, SpanAnalysis, TurnDigest } from './span-types.js';

/** Pairs of strings earlier details carried under `extra[key]`. */
function carriedPairs(details: PivotDetails | undefined, key: string): Array<[string, string]> {
  const v = details?.extra?.[key];
  if (!Array.isArray(v)) return [];
  return v.filter(
    (x): x is [string, string] => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'string',
  );
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
