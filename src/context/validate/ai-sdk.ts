import {
  isObj,
  nonEmptyString,
  type Obj,
  OpenCalls,
  UniqueIds,
  type Violation,
  Violations,
} from './types.js';

const PARTS_BY_ROLE: Record<string, Set<string>> = {
  user: new Set(['text', 'image', 'file']),
  assistant: new Set(['text', 'file', 'reasoning', 'tool-call', 'tool-result', 'tool-approval-request']),
  tool: new Set(['tool-result', 'tool-approval-response']),
};
const OUTPUT_TYPES = new Set(['text', 'json', 'error-text', 'error-json', 'execution-denied', 'content']);

/**
 * AI SDK `ModelMessage[]` rules: valid roles and parts; no empty content or blank text; system
 * messages only before the conversation (the SDK's Anthropic and Google providers reject later
 * ones) and the conversation opening with a user message (portable to every provider); every
 * tool-call answered by a tool-result in the `tool` message(s) right after its assistant message
 * (the SDK raises MissingToolResultsError otherwise); no orphan or repeated result; every
 * tool-call id used once in the request (the SDK pairs by a set of ids, so a repeat in one message
 * is ambiguous, and providers such as Anthropic reject one anywhere in the request).
 */
export function validateAiSdk(payload: unknown): Violation[] {
  const v = new Violations();
  if (!Array.isArray(payload)) {
    v.add(-1, 'payload-shape', 'expected an array of ModelMessage');
    return v.list;
  }
  if (payload.length === 0) v.add(-1, 'empty-messages', 'messages must not be empty');
  let conversationStarted = false;
  let open: { calls: OpenCalls; at: number } | null = null;
  const ids = new UniqueIds('tool-call', 'request');
  for (let i = 0; i < payload.length; i++) {
    const message: unknown = payload[i];
    if (!isObj(message)) {
      v.add(i, 'message-shape', 'a message must be an object');
      continue;
    }
    const role = message.role;
    if (role === 'system') {
      if (!nonEmptyString(message.content))
        v.add(i, 'empty-content', 'system content must be a non-empty string');
      if (conversationStarted)
        v.add(i, 'system-position', 'system messages must come before the conversation');
    } else if (typeof role !== 'string' || PARTS_BY_ROLE[role] === undefined) {
      v.add(i, 'role', `invalid role ${JSON.stringify(role)}`);
      continue;
    } else if (!conversationStarted) {
      conversationStarted = true;
      if (role !== 'user') v.add(i, 'first-message-user', 'the conversation must open with a user message');
    }
    const parts = checkParts(v, i, message);
    if (role === 'tool') {
      checkResults(v, i, parts, open?.calls ?? null);
      continue;
    }
    v.missingResults(open, 'tool calls without a tool-result right after');
    open = null;
    if (role === 'assistant') {
      const calls = new OpenCalls();
      for (const p of parts) {
        if (p.type !== 'tool-call' || !nonEmptyString(p.toolCallId)) continue;
        ids.check(v, i, p.toolCallId);
        if (p.providerExecuted !== true) calls.call(p.toolCallId);
      }
      if (calls.size > 0) open = { calls, at: i };
    }
  }
  v.missingResults(open, 'tool calls without a tool-result right after');
  return v.list;
}

function checkParts(v: Violations, i: number, message: Obj): Obj[] {
  const content = message.content;
  if (message.role === 'system') return [];
  if (typeof content === 'string') {
    if (message.role === 'tool') v.add(i, 'part-shape', 'tool content must be an array of tool-result parts');
    if (content.trim() === '') v.add(i, 'empty-content', 'content must not be empty or blank');
    return [];
  }
  if (!Array.isArray(content) || content.length === 0) {
    v.add(i, 'empty-content', 'content must be a non-empty string or array of parts');
    return [];
  }
  const allowed = PARTS_BY_ROLE[String(message.role)]!;
  const parts: Obj[] = [];
  for (const part of content) {
    if (!isObj(part) || typeof part.type !== 'string' || !allowed.has(part.type)) {
      v.add(
        i,
        'part-shape',
        `a ${String(message.role)} message cannot hold ${JSON.stringify(isObj(part) ? part.type : part)}`,
      );
      continue;
    }
    if (part.type === 'text' && (typeof part.text !== 'string' || part.text.trim() === '')) {
      v.add(i, 'empty-content', 'text parts must contain non-whitespace text');
    }
    if (part.type === 'reasoning' && typeof part.text !== 'string')
      v.add(i, 'part-shape', 'reasoning needs text');
    if ((part.type === 'tool-call' || part.type === 'tool-result') && !nonEmptyString(part.toolCallId)) {
      v.add(i, 'part-shape', `${part.type} needs toolCallId and toolName`);
    }
    if ((part.type === 'tool-call' || part.type === 'tool-result') && !nonEmptyString(part.toolName)) {
      v.add(i, 'part-shape', `${part.type} needs toolCallId and toolName`);
    }
    if (part.type === 'tool-result' && !(isObj(part.output) && OUTPUT_TYPES.has(String(part.output.type)))) {
      v.add(i, 'tool-result-output', 'tool-result output must be { type: text|json|error-text|…, value }');
    }
    parts.push(part);
  }
  return parts;
}

function checkResults(v: Violations, i: number, parts: Obj[], calls: OpenCalls | null): void {
  for (const part of parts) {
    if (part.type !== 'tool-result') continue;
    const id = String(part.toolCallId);
    const answer = calls === null ? 'unknown' : calls.answer(id);
    if (answer === 'duplicate') v.add(i, 'duplicate-tool-result', `a second tool-result for ${id}`);
    if (answer === 'unknown')
      v.add(i, 'orphan-tool-result', `tool-result ${id} answers no call of the assistant message before`);
  }
}
