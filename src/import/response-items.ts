import type { AssistantMessage } from '../model/message.js';
import { itemMessage } from './codex-compacted.js';
import { messageContent, reasoningItem, toolOutput } from './codex-items.js';
import { joinField, json, needId, needString, parseArguments, type Rec } from './fields.js';
import type { TranscriptBuilder } from './transcript-builder.js';
import type { ImportWhere } from './types.js';

/**
 * OpenAI Responses API items, as the API takes and returns them and as Codex records them: one
 * reader for both. Consecutive output items form one assistant step, which ends when a tool
 * output or a message of another role arrives (or the caller ends it).
 */

const CALL_TYPES = ['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call'];
const OUTPUT_TYPES = ['function_call_output', 'custom_tool_call_output', 'local_shell_call_output'];
const WEB_SEARCH_OUTPUT = '[web search results are not recorded in the rollout]';

export interface StepState {
  model: string | undefined;
  /** Index of the assistant message still receiving output items, if any. */
  step: number | undefined;
  /** Index of the latest assistant step, open or not. */
  lastStep: number | undefined;
  /** User texts recorded as message items since the last step (Codex skips their event echoes). */
  userTexts: Set<string>;
}

export function newStepState(model?: string): StepState {
  return { model, step: undefined, lastStep: undefined, userTexts: new Set() };
}

/** One item; `field` is where it sits (`payload` in a Codex line, `input[3]` in a request). */
export function onItem(
  b: TranscriptBuilder,
  s: StepState,
  item: Rec,
  w: ImportWhere,
  at: { createdAt?: number },
  field: string,
): void {
  const f = (name: string) => joinField(field, name);
  const type = needString(item.type, w, f('type'));
  if (type === 'message') {
    const role = needString(item.role, w, f('role'));
    const parts = messageContent(item.content, w, f('content'));
    if (role === 'assistant') {
      stepMessage(b, s, at).parts.push(...parts);
      return;
    }
    s.step = undefined;
    if (role === 'user') for (const p of parts) if (p.type === 'text') s.userTexts.add(p.text);
    b.push({ message: itemMessage(role, parts, w, f('role')), ...at }, { line: w.line, field });
  } else if (type === 'reasoning') {
    stepMessage(b, s, at).parts.push(reasoningItem(item, w, field));
  } else if (CALL_TYPES.includes(type)) {
    stepMessage(b, s, at);
    addCall(b, s.step!, type, item, w, field);
  } else if (OUTPUT_TYPES.includes(type)) {
    const callId = needId(item.call_id, w, f('call_id'));
    b.resolveOrKeep(callId, toolOutput(item.output, w, f('output')), { line: w.line, field });
    s.step = undefined;
  } else b.warnings.push(`${w.line === undefined ? field : `line ${w.line}`}: item of type ${type} skipped`);
}

/** The open assistant step, opening a new one when the previous step has ended. */
export function stepMessage(
  b: TranscriptBuilder,
  s: StepState,
  at: { createdAt?: number },
): AssistantMessage {
  s.userTexts.clear();
  if (s.step === undefined || s.step !== b.messages.length - 1) {
    const message: AssistantMessage = { role: 'assistant', parts: [] };
    s.step = b.push({ message, ...(s.model ? { model: s.model } : {}), ...at });
    s.lastStep = s.step;
  }
  return b.messages[s.step]!.message as AssistantMessage;
}

function addCall(
  b: TranscriptBuilder,
  index: number,
  type: string,
  item: Rec,
  w: ImportWhere,
  field: string,
): void {
  if (type === 'web_search_call') {
    const callId = typeof item.id === 'string' && item.id !== '' ? item.id : `web_search_${w.line ?? field}`;
    b.addCall(index, { callId, name: 'web_search', input: json(item.action ?? {}) });
    b.resolve(callId, { output: WEB_SEARCH_OUTPUT });
    return;
  }
  const callId = needId(item.call_id, w, joinField(field, 'call_id'));
  if (type === 'local_shell_call') {
    b.addCall(index, { callId, name: 'local_shell', input: json(item.action ?? {}) });
    return;
  }
  const name = needId(item.name, w, joinField(field, 'name'));
  // custom tools (apply_patch) take free text, function tools JSON arguments.
  const raw = type === 'custom_tool_call' ? item.input : item.arguments;
  const input =
    typeof raw === 'string' ? (type === 'custom_tool_call' ? raw : parseArguments(raw)) : json(raw ?? {});
  b.addCall(index, { callId, name, input });
}
