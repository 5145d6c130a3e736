import type { JsonValue } from '../model/json.js';
import type { ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import { errorLines } from './error-lines.js';
import { FAILURE_SEPARATOR, toolExitCode, toolFailed, toolLabel } from './facts.js';
import { shellCommand } from './paths.js';
import { shellSegments } from './shell-words.js';

/** A distinct command (or other call) and how its runs ended, newest run last. */
export interface CallOutcome {
  label: string;
  /** A shell command, as opposed to another tool's call. */
  shell: boolean;
  /** 'fixed': it failed, and a later run (of it, or of the same command more broadly) succeeded. */
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
  head: string;
  files: Set<string>;
  /** The latest failing run, read for its error lines only if it stays the final outcome. */
  failedRun?: { part: ToolPart; exit: number | undefined };
}

const BACKGROUND = /(?:Process running with session ID|running in background with ID:?)\s*([\w-]+)/i;
const EXITED = /Process exited with code (-?\d+)/;
const POLL_ID_FIELDS = ['session_id', 'bash_id', 'shell_id'];
/** Runners whose next word names the task: `npm run build`, `npx vitest`, `python -m pytest`. */
const RUNNERS = new Set(['run', 'exec', 'x', '-m']);
const WITH_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

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
function commandHead(key: string): { head: string; files: Set<string> } {
  const words = (shellSegments(key)[0] ?? []).map((w) => w.text);
  const plain = words.filter((w) => !w.startsWith('-') || w === '-m');
  const n = RUNNERS.has(plain[1] ?? '') || plain[0] === 'npx' ? 3 : 2;
  return { head: plain.slice(0, n).join(' '), files: new Set(words.filter((w) => WITH_EXTENSION.test(w))) };
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

/**
 * Follows every call of a span to its final outcome. A background process polled by another
 * call (Codex `write_stdin`, Claude Code `BashOutput`) ends as its poll reports, and the outcome
 * belongs to the command that started it, not to the poll.
 */
export class OutcomeTracker {
  private readonly byKey = new Map<string, Tracked>();
  private readonly background = new Map<string, string>();
  /** Failures an earlier summary left open, by label: a run of the same call settles them. */
  private readonly carried = new Map<string, string>();

  /** A failure an earlier summary carried ("label → why"), open until a run here settles it. */
  carry(line: string): void {
    const at = line.lastIndexOf(FAILURE_SEPARATOR);
    const label = at < 0 ? line : line.slice(0, at);
    // Other tools' labels are `Tool(input)` or `Tool path`; commands rarely start with a capital.
    const shell = !/^[\w.-]+\(/.test(label) && !/^[A-Z]\w*\s/.test(label);
    const key = shell ? commandKey(label) : `call\u0000${label}`;
    const { head, files } = shell ? commandHead(key) : { head: '', files: new Set<string>() };
    const error = at < 0 ? 'failed' : line.slice(at + FAILURE_SEPARATOR.length);
    this.byKey.set(key, {
      label,
      shell,
      status: 'failed',
      runs: 1,
      failures: 1,
      error,
      order: -1,
      head,
      files,
    });
    this.carried.set(label, key);
  }

  note(part: ToolPart, order: number): void {
    if (part.state === 'pending' || part.state === 'running') return;
    const id = pollId(part);
    const owner = id === undefined ? undefined : this.background.get(id);
    if (owner !== undefined) {
      const exited = EXITED.exec(head(toolOutputText(part)));
      if (exited) this.record(owner, part, Number(exited[1]) !== 0, Number(exited[1]), order);
      return;
    }
    const { command, label, key } = this.identify(part);
    if (!this.byKey.has(key)) {
      const { head, files } =
        command === undefined ? { head: '', files: new Set<string>() } : commandHead(key);
      this.byKey.set(key, {
        label,
        shell: command !== undefined,
        status: 'ok',
        runs: 0,
        failures: 0,
        order,
        head,
        files,
      });
    }
    const out = command === undefined || part.state !== 'completed' ? '' : head(toolOutputText(part));
    const started = out === '' ? null : BACKGROUND.exec(out);
    if (started && !EXITED.test(out)) {
      this.background.set(started[1]!, key);
      return;
    }
    this.record(key, part, toolFailed(part), undefined, order);
  }

  /** Agents repeat calls: each distinct command (or tool and input) is labelled and keyed once. */
  private readonly identities = new Map<
    string,
    { command: string | undefined; label: string; key: string }
  >();

  private identify(part: ToolPart): { command: string | undefined; label: string; key: string } {
    const command = shellCommand(part);
    const raw = command ?? `${part.name}\u0000${JSON.stringify(part.input)}`;
    let id = this.identities.get(raw);
    if (id === undefined) {
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
      t.failedRun = { part, exit };
      delete t.fixedBy;
      return;
    }
    if (t.status === 'failed') t.status = 'fixed';
    if (!t.shell) return;
    // The same command run more broadly (or with refs added: `git push -u origin x`) fixes it too.
    for (const other of this.byKey.values()) {
      if (other === t || other.status !== 'failed' || other.head !== t.head || t.head === '') continue;
      const broader =
        t.files.size === 0 || (other.files.size > 0 && [...other.files].every((f) => t.files.has(f)));
      if (!broader) continue;
      other.status = 'fixed';
      other.fixedBy = t.label;
    }
  }

  /** Every distinct call, in order of its latest run. */
  outcomes(): CallOutcome[] {
    return [...this.byKey.values()]
      .filter((t) => t.runs > 0)
      .sort((a, b) => a.order - b.order)
      .map(({ head: _h, files: _f, failedRun, ...o }) =>
        failedRun && o.status === 'failed' ? { ...o, error: errorNote(failedRun.part, failedRun.exit) } : o,
      );
  }
}
