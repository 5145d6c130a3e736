import {
  isObj,
  nonEmptyString,
  type Obj,
  OpenCalls,
  UniqueIds,
  type Violation,
  Violations,
} from './types.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/**
 * OpenAI Chat Completions `messages` rules: valid roles; content where required; each assistant's
 * tool_calls answered by exactly one `tool` message each, in the contiguous block of tool messages
 * right after it; no tool message outside such a block or without a matching call; call ids unique
 * within one assistant message (results name their call by id, so a repeat there is ambiguous and
 * OpenAI rejects it). An id may repeat in a later message: OpenAI's own models do that (tau-bench).
 */
export function validateOpenAI(payload: unknown): Violation[] {
  const v = new Violations();
  if (!Array.isArray(payload)) {
    v.add(-1, 'payload-shape', 'expected an array of Chat Completions messages');
    return v.list;
  }
  if (payload.length === 0) v.add(-1, 'empty-messages', 'a request needs at least one message');
  let open: { calls: OpenCalls; at: number } | null = null;
  for (let i = 0; i < payload.length; i++) {
    const message: unknown = payload[i];
    if (!isObj(message)) {
      v.add(i, 'message-shape', 'a message must be an object');
      continue;
    }
    const role = message.role;
    if (typeof role !== 'string' || !ROLES.has(role)) {
      v.add(i, 'role', `invalid role ${JSON.stringify(role)}`);
      continue;
    }
    if (role === 'tool') {
      checkToolMessage(v, i, message, open?.calls ?? null);
      continue;
    }
    v.missingResults(open, 'tool calls without a tool message');
    open = null;
    if (role === 'assistant') {
      const calls = checkAssistant(v, i, message);
      if (calls !== null) open = { calls, at: i };
    } else if (!hasContent(message.content)) {
      v.add(i, 'empty-content', `a ${role} message needs non-empty content`);
    }
  }
  v.missingResults(open, 'tool calls without a tool message');
  return v.list;
}

function hasContent(content: unknown): boolean {
  if (typeof content === 'string') return content !== '';
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((p) => isObj(p) && (p.type !== 'text' || nonEmptyString(p.text)));
}

/** Returns the calls this assistant message opens, or null if it has none. */
function checkAssistant(v: Violations, i: number, message: Obj): OpenCalls | null {
  const toolCalls = message.tool_calls;
  const hasCalls = Array.isArray(toolCalls) && toolCalls.length > 0;
  if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) {
    v.add(i, 'tool-call-shape', 'tool_calls must be an array');
  }
  const content = message.content;
  if (!hasCalls && !hasContent(content))
    v.add(i, 'empty-content', 'an assistant message needs content or tool_calls');
  if (hasCalls && content !== null && content !== undefined && content !== '' && !hasContent(content)) {
    v.add(i, 'empty-content', 'assistant content must be null or non-empty');
  }
  if (!hasCalls) return null;
  const calls = new OpenCalls();
  const ids = new UniqueIds('tool call', 'message');
  for (const call of toolCalls as unknown[]) {
    const fn = isObj(call) ? call.function : undefined;
    const ok =
      isObj(call) &&
      nonEmptyString(call.id) &&
      call.type === 'function' &&
      isObj(fn) &&
      nonEmptyString(fn.name) &&
      typeof fn.arguments === 'string';
    if (!ok)
      v.add(
        i,
        'tool-call-shape',
        'a tool call needs id, type "function", function.name and string arguments',
      );
    if (!isObj(call) || !nonEmptyString(call.id)) continue;
    ids.check(v, i, call.id);
    calls.call(call.id);
  }
  return calls;
}

function checkToolMessage(v: Violations, i: number, message: Obj, open: OpenCalls | null): void {
  const id = message.tool_call_id;
  if (!nonEmptyString(id)) {
    v.add(i, 'tool-message-shape', 'a tool message needs tool_call_id');
    return;
  }
  if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
    v.add(i, 'tool-message-shape', 'a tool message needs content');
  }
  const answer = open === null ? 'unknown' : open.answer(id);
  if (answer === 'duplicate') v.add(i, 'duplicate-tool-result', `a second tool message for call ${id}`);
  if (answer === 'unknown') {
    v.add(
      i,
      'orphan-tool-result',
      `tool message ${id} does not follow the assistant message holding its call`,
    );
  }
}
