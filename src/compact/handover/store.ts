import type { PivotDetails } from '../../model/entry.js';
import type { JsonValue } from '../../model/json.js';
import { FAILURE_SEPARATOR } from '../facts.js';
import type {
  CommandRecord,
  CommandStatus,
  Handover,
  KeyValue,
  KeyValueKind,
  NextStep,
  NextStepSource,
  OpenFailure,
  PendingItem,
} from './types.js';

/**
 * The handover as a pivot stores it: the typed fields of PivotDetails (files, failures,
 * constraints, latest request) and the rest under `extra`, in plain JSON so that any store keeps
 * it. Written by handoverDetails, read back by carriedHandover: a later compaction starts from it.
 */

/** `extra.handover`: details written with the handover's facts (a version, for later changes). */
export const HANDOVER_VERSION = 1;

/** Strings a previous pivot carried under `extra[key]`. */
export function carriedLines(details: PivotDetails | undefined, key: string): string[] {
  const v: JsonValue | undefined = details?.extra?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Tuples of strings a previous pivot carried under `extra[key]`, each at least `min` long. */
function carriedTuples(details: PivotDetails | undefined, key: string, min: number): string[][] {
  const v = details?.extra?.[key];
  if (!Array.isArray(v)) return [];
  return v.filter(
    (x): x is string[] => Array.isArray(x) && x.length >= min && x.every((y) => typeof y === 'string'),
  );
}

function carriedNumber(details: PivotDetails | undefined, key: string): number {
  const v = details?.extra?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** A command's final outcome as carried: [label, 'ok' | 'failed' | 'fixed' (, fixedBy)]. */
export type CarriedCommand = [string, string];

export function carriedCommands(details: PivotDetails | undefined): CarriedCommand[] {
  return carriedTuples(details, 'commands', 2).map((t) => [t[0]!, t[1]!]);
}

/**
 * Whether an earlier pivot carried a coding session's work (commands listed or counted, files):
 * a span without calls after it is still a coding session, not a conversation.
 */
export function hasCarriedWork(details: PivotDetails | undefined): boolean {
  if (details === undefined) return false;
  return (
    carriedCommands(details).length > 0 ||
    carriedNumber(details, 'otherCommands') > 0 ||
    details.filesRead.length + details.filesModified.length > 0
  );
}

/** Whether the details carry the handover's facts (written by this version or a later one). */
export function hasHandover(details: PivotDetails | undefined): boolean {
  return typeof details?.extra?.handover === 'number';
}

const STATUSES = new Set(['ok', 'failed', 'fixed']);
const KINDS = new Set(['url', 'commit', 'pr', 'issue', 'id', 'port']);
const SOURCES = new Set(['todo', 'tracker', 'agent', 'plan', 'request', 'reply']);

export function splitFailure(line: string): OpenFailure {
  const at = line.lastIndexOf(FAILURE_SEPARATOR);
  return at < 0
    ? { label: line, error: 'failed' }
    : { label: line.slice(0, at), error: line.slice(at + FAILURE_SEPARATOR.length) };
}

/** The handover an earlier pivot carried, as far as its details hold it (any version: missing parts are empty). */
export function carriedHandover(details: PivotDetails | undefined): Handover {
  const commands: CommandRecord[] = carriedTuples(details, 'commands', 2).map(([label, status, fixedBy]) => ({
    label: label!,
    status: (STATUSES.has(status!) ? status : 'ok') as CommandStatus,
    ...(fixedBy ? { fixedBy } : {}),
  }));
  const pending: PendingItem[] = carriedTuples(details, 'pending', 3).map(([text, status, source]) => ({
    text: text!,
    status: status === 'in_progress' ? 'in_progress' : 'pending',
    source: source!,
  }));
  const keyValues: KeyValue[] = carriedTuples(details, 'keyValues', 3)
    .filter((t) => KINDS.has(t[1]!))
    .map(([value, kind, source]) => ({ value: value!, kind: kind as KeyValueKind, source: source! }));
  const next = carriedLines(details, 'nextStep');
  const nextStep: NextStep | undefined =
    next[0] === undefined
      ? undefined
      : { text: next[0], source: (SOURCES.has(next[1] ?? '') ? next[1] : 'agent') as NextStepSource };
  const modified = details?.filesModified ?? [];
  const modifiedSet = new Set(modified);
  const request = details?.lastUserRequest;
  const cwd = details?.extra?.cwd;
  return {
    ...(typeof cwd === 'string' ? { cwd } : {}),
    requests: carriedLines(details, 'requests').map((text) => ({ text })),
    ...(request === undefined || request.trim() === ''
      ? {}
      : {
          currentTask: {
            request,
            inTail: false,
            done: carriedLines(details, 'done'),
            otherCalls: carriedNumber(details, 'otherCalls'),
          },
        }),
    constraints: details?.constraints ?? [],
    decisions: carriedLines(details, 'decisions'),
    pending,
    ...(nextStep ? { nextStep } : {}),
    openFailures: (details?.failedCommands ?? []).map(splitFailure),
    interrupted: carriedLines(details, 'interrupted'),
    commands,
    otherCommands: carriedNumber(details, 'otherCommands'),
    files: { modified, read: (details?.filesRead ?? []).filter((f) => !modifiedSet.has(f)) },
    keyValues,
    chat: details?.extra?.chat === true,
  };
}

/**
 * The details a pivot stores for a handover: the typed fields, and the rest under `extra`
 * (`requests`, `commands`, `decisions`, `nextStep` and `cwd` keep the keys earlier versions used).
 * `filesRead` lists every file read, modified ones included, as before.
 */
export function handoverDetails(h: Handover, filesRead: readonly string[] = h.files.read): PivotDetails {
  const details: PivotDetails = {
    filesRead: [...filesRead],
    filesModified: [...h.files.modified],
    failedCommands: h.openFailures.map((f) => `${f.label}${FAILURE_SEPARATOR}${f.error}`),
    constraints: [...h.constraints],
    extra: {
      handover: HANDOVER_VERSION,
      requests: h.requests.map((r) => r.text),
      commands: h.commands.map((c) => [c.label, c.status, ...(c.fixedBy ? [c.fixedBy] : [])]),
      otherCommands: h.otherCommands,
      decisions: [...h.decisions],
      pending: h.pending.map((p) => [p.text, p.status, p.source]),
      interrupted: [...h.interrupted],
      keyValues: h.keyValues.map((v) => [v.value, v.kind, v.source]),
      ...(h.nextStep ? { nextStep: [h.nextStep.text, h.nextStep.source] } : {}),
      ...(h.currentTask ? { done: [...h.currentTask.done], otherCalls: h.currentTask.otherCalls } : {}),
      ...(h.cwd === undefined ? {} : { cwd: h.cwd }),
      ...(h.chat ? { chat: true } : {}),
    },
  };
  if (h.currentTask) details.lastUserRequest = h.currentTask.request;
  return details;
}
