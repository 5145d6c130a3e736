import type { AssistantMessage } from '../model/message.js';
import type { UserPart } from '../model/parts.js';
import { messageContent, reasoningItem, toolOutput } from './codex-items.js';
import {
  fail,
  isRecord,
  json,
  needId,
  needRecord,
  needString,
  optString,
  parseArguments,
  type Rec,
  timestamp,
} from './fields.js';
import { type JsonLine, parseJsonLines } from './json-text.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedSession, ImportWhere } from './types.js';

const CALL_TYPES = ['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call'];
const OUTPUT_TYPES = ['function_call_output', 'custom_tool_call_output', 'local_shell_call_output'];
const WEB_SEARCH_OUTPUT = '[web search results are not recorded in the rollout]';

/**
 * A Codex CLI rollout (JSONL of `{timestamp, type, payload}`). `response_item`s are the model's
 * input/output items in order; consecutive output items form one assistant step, which ends when a
 * tool output, a user message or a `token_count` event arrives. `token_count`'s
 * `info.last_token_usage` is the raw usage of that step. `session_meta`'s base instructions become
 * `system`; developer messages stay in place as system messages. `event_msg` `user_message` is used
 * only when the rollout did not also record the message as a response item.
 */
export function parseCodex(text: string, where: ImportWhere = {}): ImportedSession {
  return parseCodexLines(parseJsonLines(text, where.file), where);
}

export function parseCodexLines(lines: JsonLine[], where: ImportWhere = {}): ImportedSession {
  const b = new TranscriptBuilder();
  const s: StepState = {
    model: undefined,
    step: undefined,
    lastStep: undefined,
    userTexts: new Set<string>(),
  };
  let sessionId: string | undefined;
  let system: string | undefined;
  for (const { line, value } of lines) {
    const w: ImportWhere = { file: where.file, line };
    const rec = needRecord(value, w, '');
    const type = needString(rec.type, w, 'type');
    const payload = needRecord(rec.payload, w, 'payload');
    const createdAt = timestamp(rec.timestamp);
    const at = createdAt === undefined ? {} : { createdAt };
    if (type === 'session_meta') {
      sessionId = optString(payload.id, w, 'payload.id') ?? sessionId;
      system = instructions(payload) ?? system;
    } else if (type === 'turn_context') {
      s.model = optString(payload.model, w, 'payload.model') ?? s.model;
    } else if (type === 'compacted') {
      const summary = needString(payload.message, w, 'payload.message');
      b.push(
        {
          message: { role: 'user', parts: [{ type: 'text', text: summary }], metadata: { summary: true } },
          ...at,
        },
        w,
      );
      s.step = undefined;
    } else if (type === 'event_msg') {
      onEvent(b, s, payload, w, at);
    } else if (type === 'response_item') {
      onItem(b, s, payload, w, at);
    } else b.warnings.push(`line ${line}: line type ${type} skipped`);
  }
  const messages = b.finish({ file: where.file });
  return {
    format: 'codex',
    ...(sessionId ? { sessionId } : {}),
    ...(system ? { system } : {}),
    messages,
    warnings: b.warnings,
  };
}

interface StepState {
  model: string | undefined;
  /** Index of the assistant message still receiving output items, if any. */
  step: number | undefined;
  /** Index of the latest assistant step, open or not. */
  lastStep: number | undefined;
  /** User texts recorded as response items since the last step, to skip their event echoes. */
  userTexts: Set<string>;
}

function instructions(payload: Rec): string | undefined {
  const base = payload.base_instructions;
  if (isRecord(base) && typeof base.text === 'string') return base.text;
  if (typeof base === 'string') return base;
  return typeof payload.instructions === 'string' ? payload.instructions : undefined;
}

function onEvent(
  b: TranscriptBuilder,
  s: StepState,
  payload: Rec,
  w: ImportWhere,
  at: { createdAt?: number },
): void {
  if (payload.type === 'token_count') {
    const info = payload.info;
    // The count follows the step it measures; a repeated count must not overwrite an earlier step's.
    const target = s.step ?? s.lastStep;
    const entry = target === undefined ? undefined : b.messages[target];
    const open = s.step !== undefined || entry?.usage === undefined;
    if (entry && open && isRecord(info) && info.last_token_usage !== undefined)
      entry.usage = info.last_token_usage;
    s.step = undefined;
  } else if (payload.type === 'user_message') {
    const text = needString(payload.message, w, 'payload.message');
    if (s.userTexts.has(text)) return;
    b.push({ message: { role: 'user', parts: [{ type: 'text', text }] }, ...at }, w);
    s.step = undefined;
  }
}

function onItem(
  b: TranscriptBuilder,
  s: StepState,
  item: Rec,
  w: ImportWhere,
  at: { createdAt?: number },
): void {
  const type = needString(item.type, w, 'payload.type');
  if (type === 'message') {
    const role = needString(item.role, w, 'payload.role');
    const parts = messageContent(item.content, w, 'payload.content');
    if (role === 'assistant') {
      stepMessage(b, s, at).parts.push(...parts);
      return;
    }
    s.step = undefined;
    if (role === 'user') {
      for (const p of parts) if (p.type === 'text') s.userTexts.add(p.text);
      b.push({ message: { role: 'user', parts: parts as UserPart[] }, ...at }, w);
    } else if (role === 'developer' || role === 'system') {
      const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      b.push({ message: { role: 'system', parts: [{ type: 'text', text }] }, ...at }, w);
    } else fail(`unknown role ${JSON.stringify(role)}`, w, 'payload.role');
  } else if (type === 'reasoning') {
    stepMessage(b, s, at).parts.push(reasoningItem(item, w));
  } else if (CALL_TYPES.includes(type)) {
    stepMessage(b, s, at);
    addCall(b, s.step!, type, item, w);
  } else if (OUTPUT_TYPES.includes(type)) {
    const callId = needId(item.call_id, w, 'payload.call_id');
    if (!b.resolve(callId, toolOutput(item.output, w, 'payload.output'))) {
      b.warnings.push(`line ${w.line}: output for unknown tool call ${callId} dropped`);
    }
    s.step = undefined;
  } else b.warnings.push(`line ${w.line}: response item of type ${type} skipped`);
}

/** The open assistant step, opening a new one when the previous step has ended. */
function stepMessage(b: TranscriptBuilder, s: StepState, at: { createdAt?: number }): AssistantMessage {
  s.userTexts.clear();
  if (s.step === undefined || s.step !== b.messages.length - 1) {
    const message: AssistantMessage = { role: 'assistant', parts: [] };
    s.step = b.push({ message, ...(s.model ? { model: s.model } : {}), ...at });
    s.lastStep = s.step;
  }
  return b.messages[s.step]!.message as AssistantMessage;
}

function addCall(b: TranscriptBuilder, index: number, type: string, item: Rec, w: ImportWhere): void {
  if (type === 'web_search_call') {
    const callId = typeof item.id === 'string' && item.id !== '' ? item.id : `web_search_line_${w.line}`;
    b.addCall(index, { callId, name: 'web_search', input: json(item.action ?? {}) });
    b.resolve(callId, { output: WEB_SEARCH_OUTPUT });
    return;
  }
  const callId = needId(item.call_id, w, 'payload.call_id');
  if (type === 'local_shell_call') {
    b.addCall(index, { callId, name: 'local_shell', input: json(item.action ?? {}) });
    return;
  }
  const name = needId(item.name, w, 'payload.name');
  // custom tools (apply_patch) take free text, function tools JSON arguments.
  const raw = type === 'custom_tool_call' ? item.input : item.arguments;
  const input =
    typeof raw === 'string' ? (type === 'custom_tool_call' ? raw : parseArguments(raw)) : json(raw ?? {});
  b.addCall(index, { callId, name, input });
}
