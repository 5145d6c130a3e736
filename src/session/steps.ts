import type { ModelMessage } from 'ai';
import type { Decision } from '../budget/index.js';
import type { LateToolResult } from '../model/ai-sdk/calls.js';
import { responseMessages } from '../model/ai-sdk/messages.js';
import type { Entry, MessageEntry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import { withReportedUsage } from '../model/reported-usage.js';
import type { SessionRecord, Usage } from '../model/session.js';
import { parseMessage } from '../model/validate.js';
import { normalizeUsage } from '../tokens/usage.js';
import { numbered, toList } from './entries.js';
import type { Write } from './log.js';
import type { ResolvedSession } from './resolve.js';
import { afterAppend, afterUsage, type SentRaw } from './state.js';

export type { ToolResult } from '../model/parts.js';

type Awaitable<T> = T | PromiseLike<T>;

/** One step of an AI SDK multi-step call: its usage and the response messages so far (cumulative). */
export interface AiSdkStep {
  usage: unknown;
  response: { messages: readonly ModelMessage[] };
}

interface StepCommon {
  /**
   * The provider's usage of the LAST model request, in any supported shape (the AI SDK's `usage`,
   * not `totalUsage`, which sums the steps). Earlier steps' messages were part of that request.
   */
  usage?: Awaitable<unknown>;
  model?: string;
  /** An integration's cursor, stored with the step in the same write (see SessionState.cursor). */
  cursor?: JsonValue;
  /**
   * Store the step only if the stored cursor is still this one (null: none yet); else nothing of
   * it is written (another instance of the integration recorded an answer to the same prompt).
   */
  expectCursor?: JsonValue;
}

/**
 * What a model call produced: its new messages in condense form, or the AI SDK's `response`, never
 * both. An AI SDK `generateText` or `streamText` result can be passed whole (`recordStep(result)`):
 * its `steps` tell which usage belongs to which request, and the promises of a stream result are
 * awaited.
 */
export type StepInput =
  | (StepCommon & { message?: Message | Message[]; response?: never; steps?: never })
  | (StepCommon & {
      /** Its `messages`: assistant + tool results of every step of the call. */
      response: Awaitable<{ messages: readonly ModelMessage[] }>;
      /** The AI SDK's `steps`: every request's own usage, so each one calibrates the estimate. */
      steps?: Awaitable<readonly AiSdkStep[]>;
      message?: never;
    });

export interface StepResult {
  entries: MessageEntry[];
  usage: Usage | null;
  decision: Decision | null;
  /** Set when the step overflowed and a compaction marker was queued. */
  markerId: string | null;
}

/** What the request of this step contained, in raw estimate tokens: what the usage is compared with. */
export interface SentFigures extends SentRaw {
  /** The pivot the request was built on: after another compaction its usage describes nothing kept. */
  pivotId: string | null;
}

/**
 * One model request's usage, and how many of the recorded messages were already in its prompt (the
 * earlier steps of a multi-step call): the prompt was what was sent plus those messages.
 */
export interface UsageSample {
  usage: Usage;
  earlier: number;
}

export interface ParsedStep {
  messages: Message[];
  /** Results for calls an earlier step made (a deferred provider result): the session completes them. */
  results: LateToolResult[];
  /** In request order; the last one describes the newest request. */
  samples: UsageSample[];
}

const assistants = (list: readonly ModelMessage[]) => list.filter((m) => m.role === 'assistant').length;

/** Validates a step's input (awaiting a stream result's promises) before anything is written. */
export async function parseStep(step: StepInput): Promise<ParsedStep> {
  if (step.message !== undefined && step.response !== undefined) {
    throw new InputError('a step has its messages or an AI SDK response, not both', { field: 'message' });
  }
  const [response, usage, steps] = await Promise.all([step.response, step.usage, step.steps]);
  const converted = response
    ? responseMessages(response.messages)
    : { messages: toList(step.message), results: [] };
  const messages = converted.messages.map((m, i) => parseMessage(m, { field: `message[${i}]` }));
  const { results } = converted;
  if (steps && steps.length > 0 && response) {
    // Each AI SDK step adds one assistant message; step i's prompt held the messages of steps < i.
    const samples = steps.map((s, i) => ({
      usage: normalizeUsage(s.usage),
      earlier: Math.min(messages.length, i === 0 ? 0 : assistants(steps[i - 1]!.response.messages)),
    }));
    return { messages: keepUsage(messages, samples), results, samples };
  }
  if (usage === undefined) return { messages, results, samples: [] };
  // Without steps the usage is the last request's: every message before the last assistant message
  // came from an earlier request of the same call and was part of this one's prompt.
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  const samples = [{ usage: normalizeUsage(usage), earlier: Math.max(0, lastAssistant) }];
  return { messages: keepUsage(messages, samples), results, samples };
}

/** Each request's usage kept on its reply (the first message after those its prompt held). */
function keepUsage(messages: Message[], samples: readonly UsageSample[]): Message[] {
  const out = [...messages];
  for (const { usage, earlier } of samples) {
    const reply = out[earlier];
    if (reply?.role === 'assistant' && usage.inputTotal > 0) out[earlier] = withReportedUsage(reply, usage);
  }
  return out;
}

/**
 * The write for a step: its messages appended and, with usage, the calibration learned from each
 * request (what was sent plus the earlier steps' messages) and the new base of the hybrid estimate:
 * the last request's prompt, with everything after it "added since".
 */
export function stepWrite(
  { messages, samples }: ParsedStep,
  model: string,
  sent: SentFigures,
  config: ResolvedSession,
) {
  return (record: SessionRecord, active: Entry[]): Write<MessageEntry> => {
    const added = numbered(messages, record, active, config);
    const state = afterAppend(record.state, added);
    if (samples.length === 0) return { append: added, state };
    // Raw tokens of the first k recorded messages: what request k's prompt held beyond `sent`.
    const before = [0];
    for (const entry of added) before.push(before.at(-1)! + entry.tokens);
    // A compaction ran while the model was answering: the calibration still learns from what was
    // sent, but that prompt is gone, so it is no base for the next estimate. Otherwise the last
    // request's usage is the base, and everything the view gained since it was built is the delta:
    // its reply and tool results, and whatever was appended while the model was running.
    const current = record.state.pivotId === sent.pivotId;
    let next = state;
    samples.forEach(({ usage, earlier }, i) => {
      const held = { logRaw: sent.logRaw + before[earlier]!, overheadRaw: sent.overheadRaw };
      const afterSeq = added[earlier]?.seq ?? record.nextSeq;
      next = afterUsage(next, usage, model, held, afterSeq, current && i === samples.length - 1);
    });
    return { append: added, state: next };
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
