import type { ModelMessage } from 'ai';
import type { Decision } from '../budget/index.js';
import { fromAiSdkResponse } from '../integrations/ai-sdk-messages.js';
import type { Entry, MessageEntry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import { finishedCall, type ToolOutcome, type ToolPart } from '../model/parts.js';
import type { SessionRecord, Usage } from '../model/session.js';
import { parseMessage } from '../model/validate.js';
import { updateCalibration } from '../tokens/index.js';
import { normalizeUsage } from '../tokens/usage.js';
import { numbered, toList } from './entries.js';
import type { Write } from './log.js';
import type { ResolvedSession } from './resolve.js';
import { afterAppend, afterReplace } from './state.js';

export interface StepInput {
  /** The step's new messages in condense form… */
  message?: Message | Message[];
  /** …or the AI SDK's `response` (its `messages`: assistant + tool results). */
  response?: { messages: readonly ModelMessage[] };
  /** The provider's usage for this step, in any supported shape. */
  usage?: unknown;
  model?: string;
}

export interface StepResult {
  entries: MessageEntry[];
  usage: Usage | null;
  decision: Decision | null;
  /** Set when the step overflowed and a compaction marker was queued. */
  markerId: string | null;
}

/** What the request of this step contained, in raw estimate tokens: what the usage is compared with. */
export interface SentFigures {
  logRaw: number;
  overheadRaw: number;
  /** The pivot the request was built on: after another compaction its usage describes nothing kept. */
  pivotId: string | null;
}

/** Validates a step's input before anything is written. */
export function parseStep(step: StepInput): { messages: Message[]; usage: Usage | null } {
  const raw = step.response ? fromAiSdkResponse(step.response.messages) : toList(step.message);
  const messages = raw.map((m, i) => parseMessage(m, { field: `message[${i}]` }));
  return { messages, usage: step.usage === undefined ? null : normalizeUsage(step.usage) };
}

/**
 * The write for a step: its messages appended and, with usage, the calibration learned from what
 * was sent and the new base of the hybrid estimate (the step's own entries are "added since").
 */
export function stepWrite(
  messages: Message[],
  usage: Usage | null,
  model: string,
  sent: SentFigures,
  config: ResolvedSession,
) {
  return (record: SessionRecord, active: Entry[]): Write<MessageEntry> => {
    const added = numbered(messages, record, active, config);
    const state = afterAppend(record.state, added);
    if (!usage) return { append: added, state };
    const calibration = updateCalibration(state.calibration[model], {
      reportedInput: usage.inputTotal,
      logRaw: sent.logRaw,
      overheadRaw: sent.overheadRaw,
    });
    // A compaction ran while the model was answering: the calibration still learns from what was
    // sent, but that prompt is gone, so it is no base for the next estimate.
    if (record.state.pivotId !== sent.pivotId) {
      return {
        append: added,
        state: { ...state, calibration: { ...state.calibration, [model]: calibration } },
      };
    }
    return {
      append: added,
      state: {
        ...state,
        calibration: { ...state.calibration, [model]: calibration },
        lastUsage: { usage, model, afterSeq: added[0]?.seq ?? record.nextSeq },
        // Everything the view gained since that request was built: this step's entries, and
        // whatever was appended while the model was running (a message the user typed meanwhile).
        addedSinceUsage: state.activeTokens - sent.logRaw,
      },
    };
  };
}

export type ToolResult = { output: JsonValue } | { error: string };

/**
 * The write that completes a call appended earlier while it was pending or running: the same part
 * gains its output (or error), so call and result stay one part.
 */
export function toolResultWrite(callId: string, result: ToolResult, config: ResolvedSession) {
  return (record: SessionRecord, active: Entry[]): Write => {
    for (let i = active.length - 1; i >= 0; i--) {
      const entry = active[i]!;
      if (entry.kind !== 'message') continue;
      const index = entry.message.parts.findIndex(
        (p) => p.type === 'tool' && p.callId === callId && (p.state === 'pending' || p.state === 'running'),
      );
      if (index < 0) continue;
      const call = entry.message.parts[index] as ToolPart;
      const outcome: ToolOutcome =
        'output' in result
          ? { state: 'completed', output: result.output }
          : { state: 'error', error: result.error };
      const done = finishedCall(call, outcome, config.now());
      const parts = entry.message.parts.map((p, j) => (j === index ? done : p));
      const message = parseMessage({ ...entry.message, parts });
      const partTokens = message.parts.map((p) => config.estimator.part(p));
      const updated = {
        ...entry,
        message,
        partTokens,
        tokens: config.estimator.message(message),
      } as MessageEntry;
      return {
        update: [{ entryId: entry.id, parts: message.parts, partTokens, tokens: updated.tokens }],
        state: afterReplace(record.state, [entry], [updated]),
      };
    }
    throw new InputError(
      `no pending or running tool call with id '${callId}' in the session's current view`,
      {
        field: 'callId',
      },
    );
  };
}

/**
 * The write that takes a prompt size the provider reported (e.g. in an overflow error) as the new
 * base of the hybrid estimate: that count covered everything appended so far.
 */
export function reportedPromptWrite(inputTotal: number, model: string, sentLogRaw: number) {
  return (record: SessionRecord): Write => ({
    append: [],
    state: {
      ...record.state,
      lastUsage: {
        usage: { inputTotal, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
        model,
        afterSeq: record.nextSeq,
      },
      // What was appended after that request was built is not in the provider's count.
      addedSinceUsage: record.state.activeTokens - sentLogRaw,
    },
  });
}
