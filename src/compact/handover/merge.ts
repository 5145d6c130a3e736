import type { PivotDetails } from '../../model/entry.js';
import { normalizePath } from '../path-normal.js';
import type { SpanAnalysis } from '../span.js';
import { commandKind } from './calls.js';
import { nextStepsList } from './todos.js';
import type { CommandRecord, Handover, PendingItem } from './types.js';

/**
 * Merging what an earlier pivot carried with what a span adds: each fact once, in its newest
 * state, within the caps a pivot carries.
 */

/** Caps on what a handover carries from pivot to pivot; rendering shows what its budget allows. */
export const HANDOVER_LIMITS = {
  requests: 200,
  oldestRequests: 20,
  requestChars: 2_000,
  constraints: 40,
  decisions: 20,
  failures: 20,
  commands: 60,
  values: 40,
  pending: 30,
  interrupted: 10,
  done: 12,
  background: 20,
  /** Files carried per kind (modified, read): the newest; the summary shows what its share allows. */
  files: 1_000,
};

const TODO_SOURCES = /^(?:todowrite|update_plan|write_todos|todo.*)$/i;
export const TRACKER_SOURCES = new Set(['bd', 'gh issue']);
export const MESSAGE_PLAN = "the agent's last message";

/** Keeps the first `oldest` and the newest of a list longer than `max`. */
export function bothEnds<T>(list: T[], max: number, oldest: number): T[] {
  return list.length <= max ? list : [...list.slice(0, oldest), ...list.slice(list.length - (max - oldest))];
}

/** Paths other paths lie inside: folders, whatever an earlier version listed them as. */
function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const p of paths)
    for (let at = p.indexOf('/', 1); at > 0; at = p.indexOf('/', at + 1)) folders.add(p.slice(0, at));
  return folders;
}

/** The files read and modified, carried and new, one spelling each, folders left out. */
export function mergeFiles(carried: Handover, previous: PivotDetails | undefined, a: SpanAnalysis) {
  const norm = (p: string) => normalizePath(p, a.base);
  const files = [...a.files.values()];
  const modified = [
    ...carried.files.modified.map(norm),
    ...files.filter((f) => f.modified).map((f) => f.path),
  ];
  const everyRead = [
    ...(previous?.filesRead ?? []).map(norm),
    ...files.filter((f) => f.read).map((f) => f.path),
  ];
  const folders = foldersOf([...modified, ...everyRead]);
  const real = (list: string[]) => [...new Set(list)].filter((p) => !folders.has(p));
  const modifiedList = real(modified).slice(-HANDOVER_LIMITS.files);
  const changed = new Set(modifiedList);
  const readList = real(everyRead).slice(-HANDOVER_LIMITS.files);
  return { modified: modifiedList, everyRead: readList, readOnly: readList.filter((f) => !changed.has(f)) };
}

/**
 * A command worth listing: it changed state or verified something, or (not a mere probe) it
 * failed. A failed probe still open is listed with the open failures; a fixed one matters no more.
 */
export function listed(kind: string, status: string): boolean {
  return kind === 'state' || kind === 'verify' || (kind === 'other' && status !== 'ok');
}

/** A text kept verbatim up to `max` characters, then cut at a word boundary with "…". */
export function capText(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.lastIndexOf(' ', max - 1);
  return `${t.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

export function mergeCommands(
  carried: Handover,
  a: SpanAnalysis,
): { commands: CommandRecord[]; other: number } {
  const all = new Map<string, CommandRecord>();
  let other = carried.otherCommands;
  // Pivots written before the handover carried every command: the reads among them are counted.
  for (const c of carried.commands) {
    if (listed(commandKind(c.label), c.status)) all.set(c.label, c);
    else other++;
  }
  for (const o of a.outcomes) {
    // Failures carried from before the span and not run again keep their place.
    if (!o.shell || (o.order < 0 && o.status === 'failed')) continue;
    const was = all.get(o.label);
    all.delete(o.label);
    if (!listed(o.kind, o.status) && was === undefined) {
      other++;
      continue;
    }
    all.set(o.label, { label: o.label, status: o.status, ...(o.fixedBy ? { fixedBy: o.fixedBy } : {}) });
  }
  const list = [...all.values()];
  const over = Math.max(0, list.length - HANDOVER_LIMITS.commands);
  return { commands: list.slice(over), other: other + over };
}

export function mergePending(carried: Handover, a: SpanAnalysis): PendingItem[] {
  const todos = a.todos;
  const plan = a.lastAssistantAt >= 0 ? nextStepsList(a.lastAssistant) : [];
  const carriedItems = carried.pending.filter(
    (p) =>
      !(todos && TODO_SOURCES.test(p.source)) &&
      !(plan.length > 0 && p.source === MESSAGE_PLAN) &&
      !(p.source.startsWith('plan in ') && a.plans.size > 0),
  );
  for (const p of carriedItems) if (TRACKER_SOURCES.has(p.source)) a.trackers.carry(p);
  const items: PendingItem[] = [
    ...carriedItems.filter((p) => !TRACKER_SOURCES.has(p.source)),
    ...(todos?.items ?? [])
      .filter((t) => t.status !== 'completed')
      .map((t) => ({ text: t.text, status: t.status as PendingItem['status'], source: todos!.source })),
    ...a.trackers.open(),
    ...plan.map((text) => ({ text, status: 'pending' as const, source: MESSAGE_PLAN })),
    ...[...a.plans.values()].map((p) => ({
      text: `${p.unchecked} unchecked item(s)${p.first ? `, the first under "${p.first}"` : ''}`,
      status: 'pending' as const,
      source: `plan in ${normalizePath(p.path, a.base)}`,
    })),
  ];
  return items.slice(-HANDOVER_LIMITS.pending);
}
