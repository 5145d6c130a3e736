import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { carriedHandover } from '../compact/index.js';
import { type ImportedSession, parseTranscript } from '../import/index.js';
import type { Strategy } from './locomo-eval.js';
import { messageTokens } from './real-count.js';
import type { Timed } from './shipped.js';
import type { Context } from './strategies.js';
import { type SessionTruth, sessionTruth } from './truth.js';

/** A real agent session: its messages, and what it holds. */
export interface RealSession {
  name: string;
  imported: ImportedSession;
  messages: Timed[];
  truth: SessionTruth;
}

const FAMILIES: Array<[string, string]> = [
  ['claude-code', '.jsonl'],
  ['codex', '.jsonl'],
  ['gemini-cli', '.json'],
];

/** Every session in agent-sessions/, imported with condense's own importers. */
export function loadSessions(dir: string): RealSession[] {
  const out: RealSession[] = [];
  for (const [family, ext] of FAMILIES) {
    const folder = join(dir, family);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)
      .filter((f) => f.endsWith(ext))
      .sort()) {
      const file = join(folder, name);
      const raw = readFileSync(file, 'utf8');
      const parsed = parseTranscript(raw, { file });
      const session = Array.isArray(parsed) ? parsed[0]! : parsed;
      out.push({
        name: `${family}/${name}`,
        imported: session,
        messages: session.messages.map((m, i) => ({ message: m.message, createdAt: m.createdAt ?? i })),
        truth: sessionTruth(session, family === 'claude-code' ? raw : undefined),
      });
    }
  }
  return out;
}

export interface SessionScores {
  files: [number, number];
  requests: [number, number];
  /** Sessions whose latest request the context holds (and, for a summary, names as the latest). */
  latest: [number, number];
  commands: [number, number];
  openFailures: [number, number];
  /** Failures later fixed that the summary still lists as failing (summaries only). */
  fixedListedOpen: number | null;
  /** Rejected or interrupted calls the summary lists as failures (summaries only). */
  refusedListed: number | null;
  /** Sessions whose summary hands over the current task (the latest request) and a next step drawn from the session. */
  task: [number, number];
  next: [number, number];
  tokens: number;
  budget: number;
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
/** The first words of a text, up to 60 characters, cut at a word boundary: enough to name it. */
export function opening(text: string, max = 60): string {
  const f = flat(text);
  if (f.length <= max) return f;
  const cut = f.lastIndexOf(' ', max);
  return f.slice(0, cut > max / 2 ? cut : max);
}

export function emptyScores(): SessionScores {
  return {
    files: [0, 0],
    requests: [0, 0],
    latest: [0, 0],
    commands: [0, 0],
    openFailures: [0, 0],
    fixedListedOpen: null,
    refusedListed: null,
    task: [0, 0],
    next: [0, 0],
    tokens: 0,
    budget: 0,
  };
}

/** Adds one session's context to the running scores. */
export function scoreSession(s: RealSession, context: Context, budget: number, into: SessionScores): void {
  const text = flat(context.text);
  const t = s.truth;
  const named = (needle: string) => text.includes(opening(needle));
  const tally = (pair: [number, number], items: readonly string[], hit: (x: string) => boolean) => {
    pair[1] += items.length;
    pair[0] += items.filter(hit).length;
  };
  // A file is named in any spelling of its path: relative, absolute, or from the home folder.
  const spellings = (f: string) => {
    const abs = f.startsWith('/') ? f : `${t.cwd ?? ''}/${f}`;
    const home = /^\/(?:Users|home)\/[^/]+\//.exec(abs)?.[0];
    return [f, abs, ...(home ? [`~/${abs.slice(home.length)}`] : [])];
  };
  tally(into.files, t.files, (f) => spellings(f).some((x) => text.includes(x)));
  tally(into.requests, t.requests, named);
  if (t.latestRequest !== undefined) {
    into.latest[1]++;
    const said = context.latestRequest;
    const right = said === undefined || flat(said) === flat(t.latestRequest);
    if (right && named(t.latestRequest)) into.latest[0]++;
  }
  tally(into.commands, t.commands, (c) => text.includes(opening(c, 40)));
  tally(into.openFailures, t.openFailures, (c) => text.includes(opening(c, 40)));
  if (context.details) {
    const listed = context.details.failedCommands ?? [];
    const isListed = (c: string) => listed.some((l) => l.startsWith(opening(c, 40)));
    into.fixedListedOpen = (into.fixedListedOpen ?? 0) + t.fixedFailures.filter(isListed).length;
    into.refusedListed = (into.refusedListed ?? 0) + t.refused.filter(isListed).length;
    const handover = carriedHandover(context.details);
    into.task[1]++;
    const latest = t.latestRequest === undefined ? undefined : flat(t.latestRequest);
    const task = handover.currentTask?.request;
    if (latest !== undefined && task !== undefined && flat(task) === latest && named(latest)) into.task[0]++;
    into.next[1]++;
    const next = handover.nextStep?.text;
    if (next !== undefined && flat(t.text).includes(flat(next)) && text.includes(flat(next))) into.next[0]++;
  }
  into.tokens += context.tokens;
  into.budget += budget;
}

/** The share of a session a strategy gets (a quarter), capped at condense's default summary size. */
export const SESSION_SHARE = 0.25;
export const SESSION_CAP = 4_000;

export async function evalSessions(
  sessions: readonly RealSession[],
  strategies: ReadonlyArray<[string, Strategy]>,
  count: (text: string) => number,
): Promise<Array<{ strategy: string } & SessionScores>> {
  const rows: Array<{ strategy: string } & SessionScores> = [];
  for (const [name, strategy] of strategies) {
    const scores = emptyScores();
    for (const s of sessions) {
      const total = s.messages.reduce((a, m) => a + messageTokens(m.message, count), 0);
      const budget = Math.min(SESSION_CAP, Math.floor(total * SESSION_SHARE));
      scoreSession(s, await strategy(s.messages, budget, count), budget, scores);
    }
    rows.push({ strategy: name, ...scores });
  }
  return rows;
}
