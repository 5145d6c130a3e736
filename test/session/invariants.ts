/**
 * The invariants every session operation keeps (TESTING.md "Invariants every change keeps"),
 * checked from the outside: the store's log, the session's figures, and the rendered context.
 * Each check throws an Error naming what broke, so a shrunk counterexample reads as a bug report.
 */
import {
  type ContextFormat,
  type OpenAIChatMessage,
  renderContext,
  validate,
} from '../../src/context/index.js';
import type { CompactionEntry, Entry, MessageEntry, Part } from '../../src/model/index.js';
import type { Session } from '../../src/session/index.js';
import { viewOptions } from '../../src/session/summary-input.js';

const FORMATS: ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];

function fail(message: string): never {
  throw new Error(message);
}

export const isMarker = (e: Entry): boolean =>
  e.kind === 'message' && e.message.parts.length > 0 && e.message.parts.every((p) => p.type === 'compaction');

/** Every string in a JSON value (message contents, tool results, system slots). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** The view options prepare() renders with. */
function viewOf(session: Session, system: string | undefined) {
  return { ...viewOptions(session.config), system };
}

/** The context as prepare() would render it now, in every format: each must validate. */
export function checkContexts(
  session: Session,
  system: string | undefined,
  latestRequest: string | undefined,
): void {
  const active = session.activeEntries();
  const opts = viewOf(session, system);
  for (const format of FORMATS) {
    const payload = renderContext(active, { ...opts, format });
    const violations = validate(payload, format);
    if (violations.length > 0) fail(`${format} context invalid: ${JSON.stringify(violations)}`);
  }
  const openai = renderContext(active, { ...opts, format: 'openai' });
  checkCallsAndResults(openai, active);
  if (latestRequest !== undefined && !strings(openai).some((s) => s.includes(latestRequest))) {
    fail(`the latest user request is not verbatim in the context: ${latestRequest}`);
  }
}

/**
 * The request the session keeps from turn to turn (what prepare() sends, updated incrementally
 * from the Log's window) is byte-identical to a full rebuild from the active entries.
 */
export function checkIncrementalContext(session: Session, system: string | undefined): void {
  const active = session.activeEntries();
  const opts = viewOf(session, system);
  for (const format of FORMATS) {
    const kept = JSON.stringify(session.context(format).render(session.log.active, system));
    if (kept !== JSON.stringify(renderContext(active, { ...opts, format })))
      fail(`${format}: the incremental context differs from a full rebuild`);
  }
}

/** Each call of the view is answered exactly once, right after its assistant message. */
function checkCallsAndResults(messages: OpenAIChatMessage[], active: Entry[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') fail(`tool message ${m.tool_call_id} at ${i} does not follow its call`);
    if (m.role !== 'assistant' || !m.tool_calls) continue;
    const ids = m.tool_calls.map((c) => c.id);
    const results = messages.slice(i + 1, i + 1 + ids.length);
    const answered = results.map((r) => (r.role === 'tool' ? r.tool_call_id : '')).sort();
    if (JSON.stringify(answered) !== JSON.stringify([...ids].sort())) {
      fail(`calls ${ids.join(',')} at ${i} are answered by ${answered.join(',')}`);
    }
    for (const id of ids) {
      if (seen.has(id)) fail(`call ${id} sent twice`);
      seen.add(id);
    }
    i += ids.length;
  }
  const expected = new Set<string>();
  for (const e of visibleMessages(active)) {
    for (const p of e.message.parts) if (p.type === 'tool') expected.add(p.callId);
  }
  const missing = [...expected].filter((id) => !seen.has(id));
  const extra = [...seen].filter((id) => !expected.has(id));
  if (missing.length + extra.length > 0) fail(`calls missing ${missing} / unexpected ${extra}`);
}

/** Message entries the view shows: the active window minus markers. */
function visibleMessages(active: Entry[]): MessageEntry[] {
  return active.filter((e): e is MessageEntry => e.kind === 'message' && !isMarker(e));
}

/** Pivots chain, and each pivot's window splits into summarized then kept with no gap or overlap. */
export function checkLineage(history: Entry[]): void {
  const pivots = history.filter((e): e is CompactionEntry => e.kind === 'compaction');
  let windowStart = 0;
  let previous: CompactionEntry | null = null;
  for (const p of pivots) {
    if (p.pivot.previousPivotId !== (previous?.id ?? null)) {
      fail(`pivot ${p.seq} links to ${p.pivot.previousPivotId}, not ${previous?.id ?? null}`);
    }
    const window = history.filter(
      (e): e is MessageEntry => e.kind === 'message' && !isMarker(e) && e.seq >= windowStart && e.seq < p.seq,
    );
    const through = window.findIndex((e) => e.id === p.pivot.summarizedThroughId);
    if (through < 0) fail(`pivot ${p.seq}: summarizedThroughId is not in its window`);
    const firstKept = p.pivot.firstKeptId;
    if (firstKept === null) {
      if (through !== window.length - 1) fail(`pivot ${p.seq} keeps nothing yet does not summarize all`);
      windowStart = p.seq;
    } else {
      const kept = window.findIndex((e) => e.id === firstKept);
      if (kept !== through + 1) fail(`pivot ${p.seq}: first kept at ${kept}, summarized through ${through}`);
      windowStart = window[kept]!.seq;
    }
    previous = p;
  }
}

/** The session's active entries are exactly the log from activeFromSeq on. */
export function checkActiveWindow(session: Session, history: Entry[]): void {
  const state = session.record.state;
  const expected = history.filter((e) => e.seq >= state.activeFromSeq).map((e) => e.id);
  const actual = session.activeEntries().map((e) => e.id);
  if (JSON.stringify(expected) !== JSON.stringify(actual)) fail('active entries differ from the log');
  const lastPivot = history.findLast((e) => e.kind === 'compaction');
  if ((lastPivot?.id ?? null) !== state.pivotId) fail('state.pivotId is not the latest pivot');
}

/**
 * state.activeTokens, as state.ts maintains it: the tokens of what the view shows — the latest
 * pivot and every message after its first kept entry, markers (answered or queued) excluded.
 */
export function expectedActiveTokens(active: Entry[]): number {
  return viewTokens(active);
}

/** The tokens of the view alone: the latest pivot and every message it shows (markers never shown). */
export function viewTokens(active: Entry[]): number {
  const pivotAt = active.findLastIndex((e) => e.kind === 'compaction');
  return active
    .filter((e, i) => (e.kind === 'compaction' ? i === pivotAt : !isMarker(e)))
    .reduce((sum, e) => sum + e.tokens, 0);
}

/** A tool part without its mark, and without its output when the output may have been erased. */
function comparable(part: Part, dropOutput: boolean): unknown {
  if (part.type !== 'tool') return part;
  const { compactedAt: _mark, ...rest } = part;
  if (!dropOutput) return rest;
  const { output: _o, error: _e, attachments: _a, ...call } = rest as Record<string, unknown>;
  return call;
}

/**
 * Nothing is deleted: the old log is a prefix of the new one, entries unchanged except that tool
 * parts may gain a pruning mark (which never changes again) and, in erase mode only, have their
 * stored output replaced by the placeholder.
 */
export function checkOnlyGrows(before: Entry[], after: Entry[], erase: boolean, placeholder: string): void {
  if (after.length < before.length) fail(`history shrank from ${before.length} to ${after.length}`);
  before.forEach((old, i) => {
    const now = after[i]!;
    if (old.id !== now.id || old.seq !== now.seq || old.kind !== now.kind) fail(`entry ${i} replaced`);
    if (old.kind === 'compaction' || now.kind === 'compaction') {
      if (JSON.stringify(old) !== JSON.stringify(now)) fail(`pivot ${old.seq} changed`);
      return;
    }
    if (old.message.role !== now.message.role || old.message.parts.length !== now.message.parts.length) {
      fail(`entry ${old.seq} changed shape`);
    }
    old.message.parts.forEach((p, j) => {
      const q = now.message.parts[j]!;
      const erased = erase && q.type === 'tool' && q.compactedAt !== undefined;
      if (JSON.stringify(comparable(p, erased)) !== JSON.stringify(comparable(q, erased))) {
        fail(`entry ${old.seq} part ${j} changed${erase ? '' : ' (hide mode keeps stored outputs)'}`);
      }
      if (erased && q.type === 'tool' && (q.state === 'completed' || q.state === 'error')) {
        const stored = q.state === 'completed' ? q.output : q.error;
        if (stored !== placeholder) fail(`entry ${old.seq} part ${j}: erased output is not the placeholder`);
      }
      if (
        p.type === 'tool' &&
        p.compactedAt !== undefined &&
        (q.type !== 'tool' || q.compactedAt !== p.compactedAt)
      ) {
        fail(`entry ${old.seq} part ${j}: pruning mark changed`);
      }
    });
  });
}
