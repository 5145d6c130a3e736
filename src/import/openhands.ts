import type { AssistantMessage } from '../model/message.js';
import {
  fail,
  isRecord,
  joinField,
  json,
  needArray,
  needId,
  needRecord,
  optString,
  parseArguments,
  type Rec,
  timestamp,
} from './fields.js';
import type { JsonLine } from './json-text.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedSession, ImportWhere } from './types.js';

/**
 * OpenHands (V0) event streams: a trajectory (a JSON array of events, as `event_to_dict` writes
 * them) or evaluation records (`output.jsonl`, one run per line: `{instance_id, history, metadata}`).
 * Messages are rebuilt the way OpenHands' ConversationMemory builds its prompt: an action carrying
 * `tool_call_metadata` stands for the model response that made it (its text and every tool call,
 * once per response id, with its usage); an observation carrying it is that call's result. Without
 * function calling, an agent action is its thought and description, an observation a user message.
 * State changes and recalls are not conversation and are counted as skipped.
 */
export function parseOpenHandsEvents(
  events: unknown[],
  where: ImportWhere,
  fieldOf: (i: number) => string,
  model?: string,
): ImportedSession {
  const b = new TranscriptBuilder();
  const responses = new Set<string>();
  const skipped = new Map<string, number>();
  let system: string | undefined;
  events.forEach((raw, i) => {
    const field = fieldOf(i);
    const event = needRecord(raw, where, field);
    const time = timestamp(event.timestamp);
    const when = time === undefined ? {} : { createdAt: time };
    const kind = typeof event.action === 'string' ? event.action : event.observation;
    if (typeof kind !== 'string') fail('an event has an `action` or an `observation`', where, field);
    const meta = isRecord(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    const args = isRecord(event.args) ? event.args : {};
    if (typeof event.action === 'string') {
      if (kind === 'system' && b.messages.length === 0) system = text(args.content);
      else if (kind === 'message' || kind === 'finish' || kind === 'system') {
        const said = kind === 'finish' ? finishText(args, event) : text(args.content);
        const role = kind === 'system' ? 'system' : event.source === 'user' ? 'user' : 'assistant';
        b.push(
          { message: { role, parts: [{ type: 'text', text: said }] } as AssistantMessage, ...when },
          { field },
        );
      } else if (meta)
        addResponse(b, responses, meta, where, joinField(field, 'tool_call_metadata'), when, model);
      else if (SKIPPED_ACTIONS.includes(kind)) count(skipped, `${kind} action`);
      else if (event.source === 'user')
        b.push({ message: userText(`User ran ${kind}:\n${text(event.message)}`), ...when }, { field });
      else b.push({ message: agentText(args, event), ...when }, { field });
    } else if (meta) {
      const callId = needId(meta.tool_call_id, where, joinField(field, 'tool_call_metadata.tool_call_id'));
      const content = text(event.content);
      b.resolveOrKeep(callId, kind === 'error' ? { error: content } : { output: content }, { field });
    } else if (SKIPPED_OBSERVATIONS.includes(kind)) count(skipped, `${kind} observation`);
    else
      b.push(
        { message: { ...userText(text(event.content)), metadata: { observation: kind } }, ...when },
        { field },
      );
  });
  for (const [what, n] of skipped)
    b.warnings.push(`${n} ${what}${n === 1 ? '' : 's'} skipped (not conversation)`);
  return {
    format: 'openhands',
    ...(system ? { system } : {}),
    messages: b.finish(where),
    warnings: b.warnings,
    ...(b.issues.length > 0 ? { issues: b.issues } : {}),
  };
}

const SKIPPED_ACTIONS = ['change_agent_state', 'null', 'recall', 'condensation', 'condensation_request'];
const SKIPPED_OBSERVATIONS = ['agent_state_changed', 'null', 'recall', 'agent_condensation'];

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function text(value: unknown): string {
  return typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? ''
      : JSON.stringify(value);
}

function userText(said: string) {
  return { role: 'user' as const, parts: [{ type: 'text' as const, text: said }] };
}

/** An agent action without function calling: its thought, then what it did (`event.message`). */
function agentText(args: Rec, event: Rec): AssistantMessage {
  const said = [text(args.thought), text(event.message)].filter((t) => t !== '').join('\n');
  return { role: 'assistant', parts: [{ type: 'text', text: said }] };
}

function finishText(args: Rec, event: Rec): string {
  return [args.final_thought, args.thought, event.message].map(text).find((t) => t !== '') ?? '';
}

/**
 * The model response behind a tool action (`tool_call_metadata.model_response`, a Chat Completions
 * response): one assistant message with its text and every call it made, added at the first
 * action of that response only; the others share it.
 */
function addResponse(
  b: TranscriptBuilder,
  responses: Set<string>,
  meta: Rec,
  w: ImportWhere,
  field: string,
  when: { createdAt?: number },
  fallbackModel: string | undefined,
): void {
  const response = needRecord(meta.model_response, w, joinField(field, 'model_response'));
  const id = needId(response.id, w, joinField(field, 'model_response.id'));
  if (responses.has(id)) return;
  responses.add(id);
  const choice = needRecord(
    needArray(response.choices, w, joinField(field, 'model_response.choices'))[0],
    w,
    joinField(field, 'model_response.choices[0]'),
  );
  const mField = joinField(field, 'model_response.choices[0].message');
  const m = needRecord(choice.message, w, mField);
  const message: AssistantMessage = { role: 'assistant', parts: [] };
  const said = optString(
    typeof m.content === 'string' ? m.content : undefined,
    w,
    joinField(mField, 'content'),
  );
  if (said && said.trim() !== '') message.parts.push({ type: 'text', text: said });
  const model = optString(response.model, w, joinField(field, 'model_response.model')) ?? fallbackModel;
  const index = b.push(
    { message, ...(model ? { model } : {}), ...(response.usage ? { usage: response.usage } : {}), ...when },
    { field },
  );
  const calls =
    m.tool_calls === undefined || m.tool_calls === null
      ? []
      : needArray(m.tool_calls, w, joinField(mField, 'tool_calls'));
  calls.forEach((raw, k) => {
    const cField = joinField(mField, `tool_calls[${k}]`);
    const call = needRecord(raw, w, cField);
    const fn = needRecord(call.function, w, joinField(cField, 'function'));
    const args = fn.arguments;
    b.addCall(index, {
      callId: needId(call.id, w, joinField(cField, 'id')),
      name: needId(fn.name, w, joinField(cField, 'function.name')),
      input: typeof args === 'string' ? parseArguments(args) : json(args ?? {}),
    });
  });
}

/** A trajectory file: the JSON array of events, or one evaluation record. */
export function parseOpenHands(value: unknown, where: ImportWhere = {}): ImportedSession {
  if (Array.isArray(value)) return parseOpenHandsEvents(value, where, (i) => `[${i}]`);
  return openHandsRecord(needRecord(value, where, ''), where);
}

/** `output.jsonl`: one session per run, named by its instance_id. */
export function parseOpenHandsLines(lines: JsonLine[], where: ImportWhere = {}): ImportedSession[] {
  return lines.map(({ line, value }) => {
    const w: ImportWhere = { file: where.file, line };
    return openHandsRecord(needRecord(value, w, ''), w);
  });
}

function openHandsRecord(rec: Rec, w: ImportWhere): ImportedSession {
  const history = needArray(rec.history, w, 'history');
  // The first versions (OpenDevin) recorded [action, observation] pairs.
  const paired = history.length > 0 && history.every(Array.isArray);
  const events = paired ? (history as unknown[][]).flat() : history;
  const fields = paired
    ? (history as unknown[][]).flatMap((pair, i) => pair.map((_, j) => `history[${i}][${j}]`))
    : undefined;
  const llm =
    isRecord(rec.metadata) && isRecord(rec.metadata.llm_config) ? rec.metadata.llm_config : undefined;
  const model = typeof llm?.model === 'string' ? llm.model : undefined;
  const session = parseOpenHandsEvents(events, w, (i) => fields?.[i] ?? `history[${i}]`, model);
  const id = rec.instance_id;
  return {
    ...session,
    ...(typeof id === 'string' || typeof id === 'number' ? { sessionId: String(id) } : {}),
  };
}
