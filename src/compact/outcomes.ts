import type { JsonValue } from '../model/json.js';
import type { ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import { errorLines } from './error-lines.js';
import { callFailed, FAILURE_SEPARATOR, toolExitCode, toolLabel } from './facts.js';
import { type CommandKind, commandKind, noMatchExit, rejectedCall } from './handover/calls.js';
import { shellCommand, shellFiles, toolFiles } from './paths.js';
import { shellSegments } from './shell-words.js';

/** A distinct command (or other call) and how its runs ended, newest run last. */
export interface CallOutcome {
  label: string;
  /** A shell command, as opposed to another tool's call. */
  shell: boolean;
  /** What the command does: changes state, verifies (test, build), reads, or something else. */
  kind: CommandKind;
  /** 'fixed': it failed, and a later run (of it, the same command more broadly, or on the same target) succeeded. */
  status: 'ok' | 'failed' | 'fixed';
  runs: number;
  failures: number;
  /** Why the latest failing run failed: "exit 1: <error lines>" or "error: …". */
  error?: string;
  /** The later command that succeeded, when it was not this very one. */
  fixedBy?: string;
  /** Position of the latest run. */
  order: number;
}

interface Tracked extends CallOutcome {
  /** The command line, for judging what its exit status means (a search finding nothing). */
  command?: string;
  head: string;
  /** The program run (`ls`, `git`), for probes: any later successful probe by it supersedes a failed one. */
  program: string;
  files: Set<string>;
  /** Files the call reads and changes: a later success on the same target settles a failed probe or file edit. */
  reads: string[];
  writes: string[];
  /** The latest failing run, read for its error lines only if it stays the final outcome. */
  failedRun?: { part: ToolPart; exit: number | undefined };
}

const BACKGROUND = /(?:Process running with session ID|running in background with ID:?)\s*([\w-]+)/i;
const EXITED = /Process exited with code (-?\d+)/;
const POLL_ID_FIELDS = ['session_id', 'bash_id', 'shell_id'];
/** Runners whose next word names the task: `npm run build`, `npx vitest`, `python -m pytest`. */
const RUNNERS = new Set(['run', 'exec', 'x', '-m']);
const WITH_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;
/** A sub-command: a plain lowercase word (`add`, `run`), not an operand in quotes or a path. */
const SUBCOMMAND = /^[a-z][\w:-]*$/;

/** Where exec wrappers report a background process and its exit: the start of the output. */
function head(output: string): string {
  return output.length > 400 ? output.slice(0, 400) : output;
}

/** The command without a leading `cd dir &&`, output plumbing or spacing differences. */
function commandKey(command: string): string {
  return command
    .replace(/^\s*cd\s+\S+\s*&&\s*/, '')
    .replace(/\s*(?:2>&1|\|\s*(?:head|tail)(?:\s+-n)?\s+-?\d+|\|\s*cat)\s*$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `git push`, `npm test`, `npm run build`: what the command does, without its operands. */
function commandHead(key: string): { head: string; program: string; files: Set<string> } {
  const words = (shellSegments(key)[0] ?? []).map((w) => w.text);
  // A sub-command comes right after the program (`git push`, `npm run build`, `python -m pytest`);
  // `codemie-codex --profile x --task "…"` has none: the program alone names the command.
  const named = words.slice(0, 1);
  const sub = words[1] ?? '';
  if (SUBCOMMAND.test(sub) || sub === '-m' || (named[0] === 'npx' && !sub.startsWith('-'))) {
    named.push(sub);
    const third = words[2] ?? '';
    if ((RUNNERS.has(sub) || named[0] === 'npx') && !third.startsWith('-') && third !== '') named.push(third);
  }
  return {
    head: named.join(' '),
    program: (words[0] ?? '').replace(/^.*\//, ''),
    files: new Set(words.filter((w) => WITH_EXTENSION.test(w))),
  };
}

function pollId(part: ToolPart): string | undefined {
  const input = part.input as Record<string, JsonValue> | null;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  for (const f of POLL_ID_FIELDS) {
    const v = input[f];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return undefined;
}

/** The text a command printed: a string output, or the stdout/stderr/output fields of an object. */
function printed(part: ToolPart): string {
  if (part.state !== 'completed') return '';
  const out = part.output;
  if (typeof out === 'string') return out;
  if (out === null || typeof out !== 'object' || Array.isArray(out)) return '';
  return ['output', 'stdout', 'stderr', 'text']
    .map((f) => out[f])
    .filter((v): v is string => typeof v === 'string')
    .join('\n');
}

function errorNote(part: ToolPart, exit: number | undefined): string {
  if (part.state === 'error') return `error: ${errorLines(part.error).join(' | ')}`;
  const lines = errorLines(printed(part));
  const code = exit ?? toolExitCode(part);
  return [code === undefined ? 'failed' : `exit ${code}`, lines.join(' | ')].filter(Boolean).join(': ');
}

/** Two spellings of one file: equal, or one the other with a leading folder (`/r/src/a.ts`, `src/a.ts`). */
function sameFile(a: string, b: string): boolean {
  const x = a.replace(/^\.\//, '');
  const y = b.replace(/^\.\//, '');
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

const covers = (later: readonly string[], failed: readonly string[]) =>
  failed.length > 0 && failed.every((f) => later.some((l) => sameFile(l, f)));

/**
 * Whether a later success supersedes a failed call: the same command run more broadly (or with
 * refs or flags added: `git push -u origin x`, `git add -f x`), a probe (ls, stat, grep) answered
 * by a later probe of the same program, or the same target read or changed after all.
 */
function supersedes(later: Tracked, failed: Tracked): boolean {
  if (later.shell && failed.shell && later.head !== '' && later.head === failed.head) {
    const broader =
      later.files.size === 0 || (failed.files.size > 0 && [...failed.files].every((f) => later.files.has(f)));
    if (broader) return true;
  }
  if (
    failed.kind === 'read' &&
    later.kind === 'read' &&
    failed.program !== '' &&
    later.program === failed.program
  )
    return true;
  // A probe or a file tool's call that failed is settled by the same work on its target; a test or
  // build that failed is not settled by reading the file it named.
  if (failed.shell && failed.kind !== 'read') return false;
  if (failed.writes.length > 0) return covers(later.writes, failed.writes);
  return covers([...later.reads, ...later.writes], failed.reads);
}

/** What makes two calls the same call: the shell command (shellCommand), else the tool's name and input. */
export function callIdentity(part: ToolPart, command: string | undefined): string {
  return command ?? `${part.name}\u0000${JSON.stringify(part.input)}`;
}

/**
 * Follows every call of a span to its final outcome. A background process polled by another
 * call (Codex `write_stdin`, Claude Code `BashOutput`) ends as its poll reports, and the outcome
 * belongs to the command that started it, not to the poll. A call the user rejected or
 * interrupted is no failure (callFailed), and a search that found nothing is none either.
 */
export class OutcomeTracker {
  private readonly byKey = new Map<string, Tracked>();
  private readonly background = new Map<string, string>();
  /** Failures an earlier summary left open, by label: a run of the same call settles them. */
  private readonly carried = new Map<string, string>();
  /** The calls whose latest run failed: what a success may supersede (few, however long the span). */
  private readonly failing = new Set<Tracked>();

  /** A failure an earlier summary carried ("label → why"), open until a run here settles it. */
  carry(line: string): void {
    const at = line.lastIndexOf(FAILURE_SEPARATOR);
    const label = at < 0 ? line : line.slice(0, at);
    // Other tools' labels are `Tool(input)` or `Tool path`; commands rarely start with a capital.
    const tool = /^([\w.-]+)\(/.exec(label)?.[1] ?? /^([A-Z]\w*)\s(.+)$/.exec(label)?.[1];
    const shell = tool === undefined;
    const key = shell ? commandKey(label) : `call\u0000${label}`;
    const path = shell ? undefined : /^[A-Z]\w*\s(.+)$/.exec(label)?.[1];
    const files = shell ? shellFiles(label) : { read: [], modified: [] };
    const modifies = !shell && /write|edit|replace|patch|create|delete|move|rename/i.test(tool);
    this.byKey.set(key, {
      label,
      shell,
      kind: shell ? commandKind(label) : 'other',
      status: 'failed',
      runs: 1,
      failures: 1,
      error: at < 0 ? 'failed' : line.slice(at + FAILURE_SEPARATOR.length),
      order: -1,
      ...(shell ? commandHead(key) : { head: '', program: '', files: new Set<string>() }),
      reads: path !== undefined && !modifies ? [path] : files.read,
      writes: path !== undefined && modifies ? [path] : files.modified,
    });
    this.failing.add(this.byKey.get(key)!);
    this.carried.set(label, key);
  }

  /** A process an earlier span started in the background and no poll has seen end yet. */
  carryBackground(id: string, label: string): void {
    const key = commandKey(label);
    if (!this.byKey.has(key)) {
      const files = shellFiles(label);
      this.byKey.set(key, {
        label,
        command: label,
        shell: true,
        kind: commandKind(label),
        status: 'ok',
        runs: 0,
        failures: 0,
        order: -1,
        ...commandHead(key),
        reads: files.read,
        writes: files.modified,
      });
    }
    this.background.set(id, key);
  }

  /** The command a poll reports for (the background process it names), before `note` settles it. */
  ownerOf(part: ToolPart): string | undefined {
    const id = pollId(part);
    const key = id === undefined ? undefined : this.background.get(id);
    if (key === undefined) return undefined;
    const owner = this.byKey.get(key)!;
    return owner.command ?? owner.label;
  }

  /** Background processes started and not seen ending: [id, command label]. */
  openBackground(): Array<[string, string]> {
    return [...this.background].map(([id, key]) => [id, this.byKey.get(key)!.label]);
  }

  /** `identity` and `failed`: callIdentity(part) and callFailed(part), when the caller has them. */
  note(part: ToolPart, order: number, identity?: string, failed = callFailed(part)): void {
    if (part.state === 'pending' || part.state === 'running') return;
    const id = pollId(part);
    const owner = id === undefined ? undefined : this.background.get(id);
    if (owner !== undefined) {
      const output = toolOutputText(part);
      const exited = EXITED.exec(head(output));
      if (!exited) return;
      const code = Number(exited[1]);
      // The exit is the command's: a search that found nothing is no failure, as if it ran in front.
      const command = this.byKey.get(owner)!.command ?? '';
      const exitFailed = code !== 0 && !rejectedCall(part) && !noMatchExit(command, code, output);
      this.record(owner, part, exitFailed, code, order);
      this.background.delete(id!);
      return;
    }
    const { command, key } = this.identify(part, identity);
    if (!this.byKey.has(key))
      this.byKey.set(key, { ...this.tracked(part, order, 0), ...(command === undefined ? {} : { command }) });
    const out = command === undefined || part.state !== 'completed' ? '' : head(toolOutputText(part));
    const started = out === '' ? null : BACKGROUND.exec(out);
    if (started && !EXITED.test(out)) {
      this.background.set(started[1]!, key);
      return;
    }
    this.record(key, part, failed, undefined, order);
  }

  /**
   * A call of the kept tail: it settles failures of the span (a later success fixes them) but is
   * no outcome of the span itself. Failed calls and polls are left to the tail.
   */
  settle(part: ToolPart, order: number): void {
    if (part.state !== 'completed' || pollId(part) !== undefined || callFailed(part)) return;
    const { key } = this.identify(part);
    const own = this.byKey.get(key);
    const later = this.tracked(part, order, 1);
    for (const other of [...this.failing]) {
      if (other !== own && !supersedes(later, other)) continue;
      this.failing.delete(other);
      other.status = 'fixed';
      if (other !== own) other.fixedBy = later.label;
    }
  }

  /** Agents repeat calls: each distinct command (or tool and input) is labelled and keyed once. */
  private readonly identities = new Map<
    string,
    { command: string | undefined; label: string; key: string }
  >();

  /** A call's entry before any run is recorded on it (the command line is added where it is judged). */
  private tracked(part: ToolPart, order: number, runs: number): Tracked {
    const { command, label, key } = this.identify(part);
    const files = toolFiles(part);
    return {
      label,
      shell: command !== undefined,
      kind: command === undefined ? 'other' : commandKind(command),
      status: 'ok',
      runs,
      failures: 0,
      order,
      ...(command === undefined ? { head: '', program: '', files: new Set<string>() } : commandHead(key)),
      reads: files.read,
      writes: files.modified,
    };
  }

  private identify(
    part: ToolPart,
    raw = callIdentity(part, shellCommand(part)),
  ): { command: string | undefined; label: string; key: string } {
    let id = this.identities.get(raw);
    if (id === undefined) {
      const command = shellCommand(part);
      // Another tool's calls are one call per label (`Edit src/a.ts`): a later edit of the file
      // that worked settles an edit that did not.
      const label = toolLabel(part);
      const key =
        this.carried.get(label) ?? (command === undefined ? `call\u0000${label}` : commandKey(command));
      id = { command, label, key };
      this.identities.set(raw, id);
    }
    return id;
  }

  private record(
    key: string,
    part: ToolPart,
    failed: boolean,
    exit: number | undefined,
    order: number,
  ): void {
    const t = this.byKey.get(key)!;
    t.runs++;
    t.order = order;
    if (failed) {
      t.failures++;
      t.status = 'failed';
      this.failing.add(t);
      t.failedRun = { part, exit };
      delete t.fixedBy;
      return;
    }
    if (t.status === 'failed') {
      t.status = 'fixed';
      this.failing.delete(t);
    }
    for (const other of [...this.failing]) {
      if (other === t || !supersedes(t, other)) continue;
      this.failing.delete(other);
      other.status = 'fixed';
      other.fixedBy = t.label;
    }
  }

  /** Every distinct call, in order of its latest run. */
  outcomes(): CallOutcome[] {
    return [...this.byKey.values()]
      .filter((t) => t.runs > 0)
      .sort((a, b) => a.order - b.order)
      .map(({ command: _c, head: _h, program: _p, files: _f, reads: _r, writes: _w, failedRun, ...o }) =>
        failedRun && o.status === 'failed' ? { ...o, error: errorNote(failedRun.part, failedRun.exit) } : o,
      );
  }
}
