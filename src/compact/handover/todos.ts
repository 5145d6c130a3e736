import type { JsonValue } from '../../model/json.js';
import type { ToolPart } from '../../model/parts.js';
import { toolOutputText } from '../../tokens/estimator.js';
import { clipLine } from '../error-lines.js';
import { shellSegments } from '../shell-words.js';
import type { PendingItem, PendingStatus } from './types.js';

export type TodoStatus = PendingStatus | 'completed';
export interface TodoItem {
  text: string;
  status: TodoStatus;
}

/** Fields of todo-list tools: Claude Code TodoWrite (todos), Codex update_plan (plan), Gemini CLI write_todos. */
const LIST_FIELDS = ['todos', 'plan', 'tasks', 'items'];
const TEXT_FIELDS = ['content', 'step', 'description', 'title', 'task', 'text', 'subject'];
const ITEM_CHARS = 300;

function status(raw: JsonValue | undefined): TodoStatus {
  const s = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (/^(?:completed?|done|finished|cancell?ed|closed|skipped)$/.test(s)) return 'completed';
  if (/^(?:in[_ -]?progress|active|doing|started|running|ongoing)$/.test(s)) return 'in_progress';
  return 'pending';
}

/** The whole todo list a todo tool's call sets (each call replaces the list), or undefined. */
export function todoList(part: ToolPart): TodoItem[] | undefined {
  if (part.state !== 'completed') return undefined;
  const input = part.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  for (const field of LIST_FIELDS) {
    const list = input[field];
    if (!Array.isArray(list) || list.length === 0) continue;
    const items: TodoItem[] = [];
    for (const x of list) {
      if (x === null || typeof x !== 'object' || Array.isArray(x) || !('status' in x)) return undefined;
      const text = TEXT_FIELDS.map((f) => x[f]).find((v): v is string => typeof v === 'string' && v !== '');
      if (text === undefined) return undefined;
      items.push({ text: clipLine(text, ITEM_CHARS), status: status(x.status) });
    }
    return items;
  }
  return undefined;
}

/** An item of an issue tracker the agent drives from the shell (`bd`, `gh issue`). */
interface TrackerItem {
  id: string;
  title?: string;
  status: TodoStatus;
  source: string;
}

function flagValue(words: string[], ...flags: string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    for (const f of flags) {
      if (w === f) return words[i + 1];
      if (w.startsWith(`${f}=`)) return w.slice(f.length + 1);
    }
  }
  return undefined;
}

/** Issue trackers driven from the shell: what each call created, started or closed. */
export class TrackerLedger {
  private readonly items = new Map<string, TrackerItem>();

  /** An item an earlier summary carried ("id: title"), open until a call here changes it. */
  carry(item: PendingItem): void {
    const at = item.text.indexOf(': ');
    const id = at < 0 ? item.text : item.text.slice(0, at);
    this.items.set(id, {
      id,
      ...(at < 0 ? {} : { title: item.text.slice(at + 2) }),
      status: item.status,
      source: item.source,
    });
  }

  note(command: string, part: ToolPart): void {
    if (part.state !== 'completed') return;
    for (const words of shellSegments(command).map((ws) => ws.map((w) => w.text))) {
      const verb = (words[0] ?? '').replace(/^.*\//, '');
      if (verb === 'bd' || verb === 'beads') this.beads(words.slice(1), part);
      else if (verb === 'gh' && words[1] === 'issue') this.github(words.slice(2), part);
    }
  }

  private set(id: string, source: string, change: Partial<TrackerItem>): void {
    const item = this.items.get(id) ?? { id, status: 'pending' as TodoStatus, source };
    this.items.delete(id);
    this.items.set(id, { ...item, ...change });
  }

  private beads(args: string[], part: ToolPart): void {
    const [sub, ...rest] = args;
    const operands = rest.filter((w, i) => !w.startsWith('-') && !rest[i - 1]?.startsWith('--'));
    if (sub === 'create' || sub === 'new') {
      const id = /\b(?:Created|created)\b[^:\n]*?:?\s+([A-Za-z][\w.-]*-[\w.]+)/.exec(
        toolOutputText(part),
      )?.[1];
      const title = flagValue(rest, '--title', '-t') ?? operands[0];
      if (id)
        this.set(id, 'bd', { ...(title ? { title: clipLine(title, ITEM_CHARS) } : {}), status: 'pending' });
    } else if (sub === 'update' || sub === 'close' || sub === 'reopen') {
      const s = sub === 'close' ? 'closed' : sub === 'reopen' ? 'open' : flagValue(rest, '--status', '-s');
      if (s === undefined) return;
      for (const id of operands) if (/\d|-/.test(id)) this.set(id, 'bd', { status: status(s) });
    }
  }

  private github(args: string[], part: ToolPart): void {
    const [sub, ...rest] = args;
    if (sub === 'create') {
      const n = /\/issues\/(\d+)/.exec(toolOutputText(part))?.[1];
      const title = flagValue(rest, '--title', '-t');
      if (n)
        this.set(`#${n}`, 'gh issue', {
          ...(title ? { title: clipLine(title, ITEM_CHARS) } : {}),
          status: 'pending',
        });
    } else if (sub === 'close' || sub === 'reopen') {
      const n = rest.find((w) => /^#?\d+$/.test(w));
      if (n)
        this.set(`#${n.replace('#', '')}`, 'gh issue', { status: sub === 'close' ? 'completed' : 'pending' });
    }
  }

  /** Items still open, in order of their latest change. */
  open(): PendingItem[] {
    return [...this.items.values()]
      .filter((i) => i.status !== 'completed')
      .map((i) => ({
        text: i.title ? `${i.id}: ${i.title}` : i.id,
        status: i.status as PendingStatus,
        source: i.source,
      }));
  }
}

/** A heading that opens a list of what remains: "Next steps:", "## Remaining work", "**TODO**". */
const NEXT_HEADING =
  /^\s*(?:#+\s*)?(?:\*\*|__)?(?:[^\w\s*_]\s*)?(?:next steps?|remaining(?: work| steps| tasks| items)?|to ?do|pending(?: tasks| work)?|follow[- ]ups?|open items|what(?:'s| is) left)\b[^\n]{0,40}$/i;
const LIST_ITEM = /^\s{0,3}(?:[-*•]|\d+[.)])\s+(?!\[[xX]\])(?:\[ \]\s*)?(.+)$/;

/**
 * The list of remaining work that ends an agent's message ("Next steps: 1. … 2. …"), verbatim, in
 * order; empty when the message has none.
 */
export function nextStepsList(text: string, max = 8): string[] {
  const lines = text.slice(-8_000).split('\n');
  for (let h = lines.length - 1; h >= 0; h--) {
    if (!NEXT_HEADING.test(lines[h]!)) continue;
    const items: string[] = [];
    for (let i = h + 1; i < lines.length && items.length < max; i++) {
      const line = lines[i]!;
      const m = LIST_ITEM.exec(line);
      if (m && !/^\s{2,}/.test(line.replace(/^\s{0,3}/, '')))
        items.push(clipLine(m[1]!.replace(/\*\*/g, ''), ITEM_CHARS));
      else if (items.length > 0 && (line.trim() === '' || /^\s*#/.test(line) || /^-{3,}$/.test(line.trim())))
        break;
    }
    if (items.length > 0) return items;
  }
  return [];
}

const PLAN_NAME = /(?:plan|spec|todo|tasks|roadmap|checklist)[^/]*$/i;
const UNCHECKED = /^\s*(?:[-*]|\d+[.)])\s+\[ \]\s+/;
const STEP_HEADING = /^#{1,6}\s+(.+)$/;

/** A plan document the agent wrote: its unchecked items and the heading the first one stands under. */
export interface WrittenPlan {
  path: string;
  unchecked: number;
  first?: string;
}

/** The plan a call writes, when it writes a plan document (a plan-named file, or one with unchecked boxes). */
export function writtenPlan(part: ToolPart): WrittenPlan | undefined {
  if (part.state !== 'completed') return undefined;
  const input = part.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const path = ['file_path', 'path', 'filePath'].map((f) => input[f]).find((v) => typeof v === 'string');
  const content = input.content ?? input.file_text;
  if (typeof path !== 'string' || typeof content !== 'string') return undefined;
  const lines = content.split('\n');
  let unchecked = 0;
  let heading: string | undefined;
  let first: string | undefined;
  for (const line of lines) {
    const h = STEP_HEADING.exec(line);
    if (h) heading = h[1]!.trim();
    if (UNCHECKED.test(line)) {
      unchecked++;
      first ??= heading ?? line.replace(UNCHECKED, '').trim();
    }
  }
  if (unchecked === 0 || (unchecked < 3 && !PLAN_NAME.test(path))) return undefined;
  return { path, unchecked, ...(first ? { first: clipLine(first, ITEM_CHARS) } : {}) };
}
