import type { ImportedSession } from '../import/index.js';
import type { Message } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';

/**
 * What a real session holds, worked out here independently of src/compact (the code under test):
 * the files named by explicit path fields, the requests the user typed, the shell commands and
 * how each ended.
 */
export interface SessionTruth {
  cwd?: string;
  files: string[];
  requests: string[];
  latestRequest?: string;
  commands: string[];
  /** Calls whose last run failed, and calls that failed and later succeeded (same call exactly). */
  openFailures: string[];
  fixedFailures: string[];
  /** Calls the user rejected or interrupted: no failure, and never an instruction to follow. */
  refused: string[];
  /** Every text of the session (user, assistant, tool outputs): where a next step must come from. */
  text: string;
}

/** Tools naming one file in an explicit field (Claude Code, Gemini CLI); search tools left out. */
const FILE_FIELD: Record<string, string> = {
  Read: 'file_path',
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
  read_file: 'file_path',
  write_file: 'file_path',
  replace: 'file_path',
};
const SHELL_TOOLS = new Set(['Bash', 'bash', 'shell', 'exec_command', 'run_shell_command', 'local_shell']);
/** Openings of user text that a client wrote, not the user. */
const CLIENT_TEXT = [
  '<command-',
  '<local-command-',
  '<task-notification>',
  '<environment_context>',
  '<user_instructions>',
  '<system-reminder>',
  '# AGENTS.md instructions',
  'Caveat: The messages below were generated',
  '[Request interrupted',
];

const field = (p: ToolPart, name: string): unknown =>
  p.input !== null && typeof p.input === 'object' && !Array.isArray(p.input) ? p.input[name] : undefined;

function tools(messages: readonly Message[]): ToolPart[] {
  return messages.flatMap((m) => m.parts.filter((p): p is ToolPart => p.type === 'tool'));
}

function typed(m: Message): string | undefined {
  if (m.role !== 'user' || m.metadata?.meta || m.metadata?.synthetic || m.metadata?.summary) return undefined;
  const text = m.parts
    .flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('\n')
    .trim();
  return text === '' || CLIENT_TEXT.some((c) => text.startsWith(c)) ? undefined : text;
}

/**
 * What a user (or a policy for the user) answers when a call is refused or cut short: the call is
 * no failure ("an interrupted or rejected call is no failure").
 */
const REFUSED =
  /doesn't want to proceed|request interrupted by user|interrupted by user|rejected (?:by the user|this action)|operation cancell?ed/i;

/**
 * A command's exit status: an error state, "Exit code N", or an exec session's "Process exited
 * with code N"; none for a refused call.
 */
function exitOf(p: ToolPart): number | undefined {
  if (p.state !== 'completed' && p.state !== 'error') return undefined;
  const out = toolOutputText(p);
  if (REFUSED.test(out.slice(0, 300))) return undefined;
  if (p.state === 'error') return 1;
  const m = /Process exited with code (-?\d+)|^Exit code (\d+)/m.exec(out);
  if (m) return Number(m[1] ?? m[2]);
  if (/Process running with session ID/.test(out)) return undefined;
  return 0;
}

/**
 * Messages a Claude Code user typed while the agent worked, read from the raw file: every
 * `queue-operation` enqueue the user did not take back (`popAll`), with its time.
 */
export function queuedInRaw(raw: string): Array<{ at: number; text: string }> {
  const out: Array<{ at: number; text: string }> = [];
  let pending: Array<{ at: number; text: string }> = [];
  for (const line of raw.split('\n')) {
    if (!line.includes('"queue-operation"')) continue;
    const rec = JSON.parse(line) as { operation?: string; content?: string; timestamp?: string };
    if (rec.operation === 'enqueue' && rec.content)
      pending.push({ at: Date.parse(rec.timestamp ?? ''), text: rec.content });
    else if (rec.operation === 'popAll') pending = [];
    else if (rec.operation === 'dequeue' || rec.operation === 'remove') out.push(...pending.splice(0, 1));
  }
  return [...out, ...pending];
}

export function sessionTruth(session: ImportedSession, raw?: string): SessionTruth {
  const messages = session.messages.map((m) => m.message);
  const cwd = messages.map((m) => m.metadata?.cwd).find((c): c is string => typeof c === 'string');
  const rel = (p: string) => (cwd && p.startsWith(`${cwd}/`) ? p.slice(cwd.length + 1) : p);
  const calls = tools(messages);
  const files = new Set<string>();
  for (const p of calls) {
    const f = FILE_FIELD[p.name] ? field(p, FILE_FIELD[p.name]!) : undefined;
    if (p.state === 'completed' && typeof f === 'string' && f !== '') files.add(rel(f));
  }
  // Requests in time order, each at its last occurrence (a dequeued message is also a user line).
  const timed = session.messages.flatMap((m, i) => {
    const t = typed(m.message);
    return t === undefined ? [] : [{ at: m.createdAt ?? i, text: t }];
  });
  const all = [...timed, ...(raw ? queuedInRaw(raw) : [])].sort((a, b) => a.at - b.at);
  const last = new Map(all.map((r, i) => [r.text.trim(), i]));
  const requests = all.filter((r, i) => last.get(r.text.trim()) === i).map((r) => r.text.trim());
  // Runs of each call in order; a poll (write_stdin) reports for the exec session it names.
  const runs = new Map<string, number[]>();
  const sessions = new Map<string, string>();
  const successes: Array<{ key: string; at: number }> = [];
  const refused = new Set<string>();
  const lastFailure = new Map<string, number>();
  for (const [at, p] of calls.entries()) {
    const command = field(p, 'command') ?? field(p, 'cmd');
    const id = field(p, 'session_id');
    // What names the call in a summary: the command, or the file a file tool worked on.
    const path = field(p, 'file_path') ?? field(p, 'path');
    const key =
      typeof command === 'string' && SHELL_TOOLS.has(p.name)
        ? command
        : id !== undefined && sessions.has(String(id))
          ? sessions.get(String(id))!
          : typeof path === 'string'
            ? rel(path)
            : `${p.name}(${JSON.stringify(p.input)}`;
    const started =
      p.state === 'completed' ? /Process running with session ID (\d+)/.exec(toolOutputText(p)) : null;
    if (started && typeof command === 'string') sessions.set(started[1]!, key);
    if ((p.state === 'completed' || p.state === 'error') && REFUSED.test(toolOutputText(p).slice(0, 300)))
      refused.add(key);
    const exit = noMatch(key, exitOf(p), p);
    if (exit === undefined) continue;
    runs.set(key, [...(runs.get(key) ?? []), exit]);
    if (exit === 0) successes.push({ key, at });
    else lastFailure.set(key, at);
  }
  // A failure a later success superseded is fixed: the same command run again or with options
  // added (`git add -f x` after `git add x`), a probe (ls, stat, grep…) answered by a later one of
  // the same program, or the same file read or written after all.
  const fixedLater = (key: string) =>
    successes.some((s) => s.at > lastFailure.get(key)! && sameWork(key, s.key));
  const commands = calls.flatMap((p) => {
    const c = field(p, 'command') ?? field(p, 'cmd');
    return SHELL_TOOLS.has(p.name) && typeof c === 'string' ? [c] : [];
  });
  const failed = [...runs].filter(([, r]) => r.some((x) => x !== 0));
  return {
    ...(cwd ? { cwd } : {}),
    files: [...files],
    requests,
    ...(requests.length > 0 ? { latestRequest: requests.at(-1)! } : {}),
    commands: [...new Set(commands)],
    refused: [...refused],
    text: messages
      .flatMap((m) =>
        m.parts.map((p) =>
          p.type === 'text'
            ? p.text
            : p.type === 'tool'
              ? `${JSON.stringify(p.input)}\n${toolOutputText(p)}`
              : '',
        ),
      )
      .join('\n'),
    openFailures: failed.filter(([k, r]) => r.at(-1) !== 0 && !fixedLater(k)).map(([k]) => k),
    fixedFailures: failed.filter(([k, r]) => r.at(-1) === 0 || fixedLater(k)).map(([k]) => k),
  };
}

const PROBES = new Set('ls cat head tail stat find grep rg egrep ag sed jq wc file tree du awk'.split(' '));
const words = (command: string) => command.trim().split(/\s+/);
const program = (command: string) => (words(command)[0] ?? '').replace(/^.*\//, '');
/** `git add`, `npm test`: the program and, when one follows it directly, its sub-command. */
const verb = (command: string) => {
  const [p, sub] = words(command);
  return sub !== undefined && /^[a-z][\w:-]*$/.test(sub) ? `${p} ${sub}` : (p ?? '');
};
const pathsOf = (command: string) => words(command).filter((w) => /[\w-]\.[A-Za-z]\w{0,7}$/.test(w));

function sameWork(failed: string, later: string): boolean {
  if (failed === later) return true;
  const probe = PROBES.has(program(failed));
  if (probe && PROBES.has(program(later)) && program(later) === program(failed)) return true;
  const files = pathsOf(failed);
  const laterFiles = pathsOf(later);
  if (verb(failed) === verb(later) && files.every((f) => laterFiles.includes(f))) return true;
  // A file tool's key is its file; a probe names its files: the same file done after all.
  const targets = files.length > 0 ? files : [failed];
  return (probe || !failed.includes(' ')) && targets.every((f) => later.includes(f));
}

/** A search that found nothing (grep, rg exiting with 1 and printing no error) is an answer. */
function noMatch(key: string, exit: number | undefined, p: ToolPart): number | undefined {
  if (exit !== 1) return exit;
  const last = key
    .split(/\s\|\s/)
    .at(-1)!
    .trim();
  if (!/^(?:grep|egrep|rg|ag)\b/.test(last)) return exit;
  return /error|denied|not permitted|no such file|not found/i.test(toolOutputText(p)) ? exit : 0;
}
