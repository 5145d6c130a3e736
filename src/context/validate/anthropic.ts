import {
  isObj,
  nonEmptyString,
  type Obj,
  OpenCalls,
  UniqueIds,
  type Violation,
  Violations,
} from './types.js';

const ID_FORMAT = /^[a-zA-Z0-9_-]+$/;
const USER_BLOCKS = new Set(['text', 'image', 'document', 'tool_result', 'search_result']);
const ASSISTANT_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use']);

/**
 * Anthropic Messages rules: `system` only in its slot; first message user; strict alternation;
 * every tool_use answered in the immediately following user message, tool_result blocks first; no
 * orphan or repeated result; tool_use ids unique and well formed, input an object; no empty
 * content or blank text; thinking blocks signed; a final assistant turn (prefill) not ending in
 * whitespace.
 */
export function validateAnthropic(payload: unknown): Violation[] {
  const v = new Violations();
  if (!isObj(payload) || !Array.isArray(payload.messages)) {
    v.add(-1, 'payload-shape', 'expected { system?, messages: [...] }');
    return v.list;
  }
  checkSystem(v, payload.system);
  const messages: unknown[] = payload.messages;
  if (messages.length === 0) v.add(-1, 'empty-messages', 'a request needs at least one message');
  const toolUseIds = new UniqueIds('tool_use', 'request');
  let pending: { calls: OpenCalls; at: number } | null = null;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isObj(message)) {
      v.add(i, 'message-shape', 'a message must be an object');
      continue;
    }
    const role = message.role;
    if (role === 'system') v.add(i, 'system-role', 'system text goes in `system`, not in messages');
    else if (role !== 'user' && role !== 'assistant')
      v.add(i, 'role', `invalid role ${JSON.stringify(role)}`);
    if (i === 0 && role !== 'user')
      v.add(i, 'first-message-user', 'the first message must be a user message');
    const previous = messages[i - 1];
    if (i > 0 && isObj(previous) && previous.role === role)
      v.add(i, 'alternation', `two ${String(role)} messages in a row`);
    const blocks = contentBlocks(v, i, message);
    if (role === 'user') checkResults(v, i, blocks, pending?.calls ?? null);
    v.missingResults(pending, 'tool_use without a tool_result in the next user message');
    pending = null;
    if (role === 'assistant') {
      const calls = checkAssistantBlocks(v, i, blocks, toolUseIds);
      if (calls.size > 0) pending = { calls, at: i };
    }
  }
  v.missingResults(pending, 'tool_use without a tool_result in the next user message');
  checkFinalAssistant(v, messages);
  return v.list;
}

/** A final assistant turn is a prefill: its content may not end in whitespace. */
function checkFinalAssistant(v: Violations, messages: unknown[]): void {
  const last = messages.at(-1);
  if (!isObj(last) || last.role !== 'assistant') return;
  const content = last.content;
  const tail = typeof content === 'string' ? content : Array.isArray(content) ? content.at(-1) : undefined;
  const text = typeof tail === 'string' ? tail : isObj(tail) && tail.type === 'text' ? tail.text : undefined;
  if (typeof text === 'string' && text !== text.trimEnd()) {
    v.add(
      messages.length - 1,
      'final-assistant-whitespace',
      'a final assistant turn cannot end with whitespace',
    );
  }
}

function checkSystem(v: Violations, system: unknown): void {
  if (system === undefined) return;
  const ok =
    typeof system === 'string' ||
    (Array.isArray(system) && system.every((b) => isObj(b) && b.type === 'text' && nonEmptyString(b.text)));
  if (!ok) v.add(-1, 'system-shape', '`system` must be a string or an array of non-empty text blocks');
}

/** The message's blocks (a string content counts as one text block); flags empty content. */
function contentBlocks(v: Violations, i: number, message: Obj): Obj[] {
  const content = message.content;
  if (typeof content === 'string') {
    if (content.trim() === '') v.add(i, 'empty-content', 'content must not be empty or blank');
    return [{ type: 'text', text: content }];
  }
  if (!Array.isArray(content) || content.length === 0) {
    v.add(i, 'empty-content', 'content must be a non-empty string or array of blocks');
    return [];
  }
  const allowed = message.role === 'assistant' ? ASSISTANT_BLOCKS : USER_BLOCKS;
  const blocks: Obj[] = [];
  for (const block of content) {
    if (!isObj(block) || typeof block.type !== 'string') {
      v.add(i, 'block-shape', 'a content block must be an object with a type');
      continue;
    }
    if (!allowed.has(block.type))
      v.add(i, 'block-role', `a ${block.type} block cannot be in a ${String(message.role)} message`);
    if (block.type === 'text' && (typeof block.text !== 'string' || block.text.trim() === '')) {
      v.add(i, 'empty-content', 'text blocks must contain non-whitespace text');
    }
    blocks.push(block);
  }
  return blocks;
}

/** Checks a user message's tool_result blocks against the calls of the assistant just before. */
function checkResults(v: Violations, i: number, blocks: Obj[], calls: OpenCalls | null): void {
  let seenOther = false;
  for (const block of blocks) {
    if (block.type !== 'tool_result') {
      seenOther = true;
      continue;
    }
    if (seenOther) v.add(i, 'tool-result-first', 'tool_result blocks must come before any other block');
    const id = block.tool_use_id;
    if (!nonEmptyString(id)) {
      v.add(i, 'block-shape', 'tool_result needs tool_use_id');
      continue;
    }
    const answer = calls === null ? 'unknown' : calls.answer(id);
    if (answer === 'duplicate') v.add(i, 'duplicate-tool-result', `a second tool_result for ${id}`);
    if (answer === 'unknown')
      v.add(i, 'orphan-tool-result', `tool_result ${id} answers no tool_use of the previous message`);
    const content = block.content;
    if (
      Array.isArray(content) &&
      content.some((b) => isObj(b) && b.type === 'text' && !nonEmptyString(b.text))
    ) {
      v.add(i, 'empty-content', `tool_result ${id} holds an empty text block`);
    }
  }
}

function checkAssistantBlocks(v: Violations, i: number, blocks: Obj[], toolUseIds: UniqueIds): OpenCalls {
  const calls = new OpenCalls();
  for (const block of blocks) {
    if (
      block.type === 'thinking' &&
      (!nonEmptyString(block.signature) || typeof block.thinking !== 'string')
    ) {
      v.add(i, 'thinking-signature', 'a thinking block needs its text and signature');
    }
    if (block.type === 'redacted_thinking' && !nonEmptyString(block.data)) {
      v.add(i, 'thinking-signature', 'a redacted_thinking block needs its data');
    }
    if (block.type !== 'tool_use') continue;
    const id = block.id;
    if (!nonEmptyString(id) || !nonEmptyString(block.name)) {
      v.add(i, 'block-shape', 'tool_use needs id and name');
      continue;
    }
    if (!ID_FORMAT.test(id)) v.add(i, 'tool-use-id-format', `tool_use id ${id} must match ${ID_FORMAT}`);
    toolUseIds.check(v, i, id);
    if (!isObj(block.input)) v.add(i, 'tool-use-input', `tool_use ${id} input must be an object`);
    calls.call(id);
  }
  return calls;
}
