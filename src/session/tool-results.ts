import type { Entry, MessageEntry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import { finishedCall, type ToolOutcome, type ToolPart } from '../model/parts.js';
import type { SessionRecord } from '../model/session.js';
import { parseMessage } from '../model/validate.js';
import type { Store } from '../store/store.js';
import type { Write } from './log.js';
import type { ResolvedSession } from './resolve.js';
import { afterReplace } from './state.js';
import type { ToolResult } from './steps.js';

/** No call with this id waits for a result where it was looked for. */
export class NoWaitingCallError extends InputError {
  constructor(callId: string, where: string) {
    super(`no pending or running tool call with id '${callId}' in ${where}`, { field: 'callId' });
  }
}

/** The newest entry of `entries` holding call `callId` still pending or running, and the part's index. */
function waitingCall(
  entries: readonly Entry[],
  callId: string,
): { entry: MessageEntry; index: number } | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind !== 'message') continue;
    const index = entry.message.parts.findIndex(
      (p) => p.type === 'tool' && p.callId === callId && (p.state === 'pending' || p.state === 'running'),
    );
    if (index >= 0) return { entry, index };
  }
  return null;
}

/** The entry with the call's part finished: its output (or error) added, so call and result stay one part. */
function completed(
  entry: MessageEntry,
  index: number,
  result: ToolResult,
  config: ResolvedSession,
): MessageEntry {
  const outcome: ToolOutcome =
    result.error === undefined
      ? {
          state: 'completed',
          output: result.output,
          ...(result.attachments ? { attachments: result.attachments } : {}),
        }
      : { state: 'error', error: result.error };
  const done = finishedCall(entry.message.parts[index] as ToolPart, outcome, config.now());
  const message = parseMessage({
    ...entry.message,
    parts: entry.message.parts.map((p, j) => (j === index ? done : p)),
  });
  const partTokens = message.parts.map((p) => config.estimator.part(p));
  return {
    ...entry,
    message,
    partTokens,
    tokens: config.estimator.message(message, partTokens),
  } as MessageEntry;
}

function checked(result: ToolResult): ToolResult {
  if ((result.output === undefined) === (result.error === undefined))
    throw new InputError('a tool result has either an output or an error', { field: 'result' });
  return result;
}

const update = (e: MessageEntry) => ({
  entryId: e.id,
  parts: e.message.parts,
  partTokens: e.partTokens,
  tokens: e.tokens,
});

/** The write that completes a call appended earlier while it was pending or running, in the view. */
export function toolResultWrite(callId: string, result: ToolResult, config: ResolvedSession) {
  checked(result);
  return (record: SessionRecord, active: Entry[]): Write => {
    const found = waitingCall(active, callId);
    if (!found) throw new NoWaitingCallError(callId, "the session's current view");
    const updated = completed(found.entry, found.index, result, config);
    return { update: [update(updated)], state: afterReplace(record.state, [found.entry], [updated]) };
  };
}

/** How far below the window a result looks for a call summarized while it waited. */
export const LATE_RESULT_REACH = 1_000;

/**
 * A call that a compaction summarized while it still waited — another worker compacted while this
 * one ran the tool, and the window had moved on too far to keep it — gets its result all the same,
 * on its stored entry: the history keeps it (searchable, exported). The view does not show it (the
 * summary already tells of the call), so only the log's total changes. Returns the write, or null
 * when no such call is within LATE_RESULT_REACH entries below the window.
 */
export async function lateResultWrite(
  store: Store,
  record: SessionRecord,
  callId: string,
  result: ToolResult,
  config: ResolvedSession,
): Promise<((record: SessionRecord) => Write) | null> {
  const from = record.state.activeFromSeq;
  const below = await store.loadFrom(record.id, Math.max(0, from - LATE_RESULT_REACH), from);
  const found = waitingCall(below, callId);
  if (!found) return null;
  const updated = completed(found.entry, found.index, checked(result), config);
  return (current) => {
    const delta = updated.tokens - found.entry.tokens;
    return {
      update: [update(updated)],
      state: { ...current.state, totalTokens: current.state.totalTokens + delta },
    };
  };
}
