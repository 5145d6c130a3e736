import type { ContextFormat } from '../../../src/context/index.js';

type Obj = Record<string, unknown>;
const objs = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);
const isObj = (value: unknown): value is Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** One call item of a payload and the result item the provider pairs with it. */
export interface CallPair {
  call: Obj;
  result: Obj;
}

/**
 * Pairs every call of a serialized payload with its result by the provider's own rule, reading only
 * the provider's shape (no code shared with the serializers or with validate()), and throws on the
 * first call without exactly one result where the provider wants it:
 * - openai: the contiguous `tool` messages right after the assistant, matched by id (unique within
 *   the message), one each, nothing left over;
 * - anthropic: the tool_result blocks opening the next user message, matched by id (unique in the
 *   whole request), one each;
 * - ai-sdk: the `tool` messages right after the assistant, matched by id (unique in the request);
 * - gemini: the functionResponse parts opening the next user content, by position and same name.
 * Pairs come in call order.
 */
export function pairCalls(payload: unknown, format: ContextFormat): CallPair[] {
  switch (format) {
    case 'openai':
      return byIdAfter(objs(payload), {
        calls: (m) => (m.role === 'assistant' ? objs(m.tool_calls) : []),
        callId: (c) => c.id,
        answers: (m) => (m.role === 'tool' ? [m] : null),
        resultId: (r) => r.tool_call_id,
        scope: 'message',
      });
    case 'ai-sdk':
      return byIdAfter(objs(payload), {
        calls: (m) => (m.role === 'assistant' ? objs(m.content).filter((p) => p.type === 'tool-call') : []),
        callId: (c) => c.toolCallId,
        answers: (m) => (m.role === 'tool' ? objs(m.content).filter((p) => p.type === 'tool-result') : null),
        resultId: (r) => r.toolCallId,
        scope: 'request',
      });
    case 'anthropic':
      return anthropicPairs(objs(isObj(payload) ? payload.messages : undefined));
    case 'gemini':
      return geminiPairs(objs(isObj(payload) ? payload.contents : undefined));
  }
}

interface IdRules {
  calls: (message: Obj) => Obj[];
  callId: (call: Obj) => unknown;
  /** The results a message holds when it may answer calls, or null when it ends the answers. */
  answers: (message: Obj) => Obj[] | null;
  resultId: (result: Obj) => unknown;
  scope: 'message' | 'request';
}

function byIdAfter(messages: Obj[], rules: IdRules): CallPair[] {
  const pairs: CallPair[] = [];
  const requestIds = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const calls = rules.calls(messages[i]!);
    if (calls.length === 0) {
      if ((rules.answers(messages[i]!)?.length ?? 0) > 0 && !answeredBlock(messages, i, rules))
        throw new Error(`message ${i}: a result with no call just before`);
      continue;
    }
    const ids = calls.map((c) => String(rules.callId(c)));
    const scope = rules.scope === 'request' ? requestIds : new Set<string>();
    for (const id of ids) {
      if (scope.has(id)) throw new Error(`message ${i}: call id ${id} repeats in the ${rules.scope}`);
      scope.add(id);
    }
    const results = new Map<string, Obj[]>();
    for (let j = i + 1; j < messages.length; j++) {
      const answers = rules.answers(messages[j]!);
      if (answers === null) break;
      for (const r of answers) {
        const id = String(rules.resultId(r));
        results.set(id, [...(results.get(id) ?? []), r]);
      }
    }
    for (const [id, found] of results) {
      if (!ids.includes(id)) throw new Error(`message ${i}: a result for ${id}, which it did not call`);
      if (found.length !== 1) throw new Error(`message ${i}: ${found.length} results for ${id}`);
    }
    calls.forEach((call, k) => {
      const result = results.get(ids[k]!)?.[0];
      if (result === undefined) throw new Error(`message ${i}: call ${ids[k]} has no result right after`);
      pairs.push({ call, result });
    });
  }
  return pairs;
}

/** Whether the answer message at `i` belongs to the block following an assistant with calls. */
function answeredBlock(messages: Obj[], i: number, rules: IdRules): boolean {
  for (let j = i - 1; j >= 0; j--) {
    if (rules.calls(messages[j]!).length > 0) return true;
    if (rules.answers(messages[j]!) === null) return false;
  }
  return false;
}

function anthropicPairs(messages: Obj[]): CallPair[] {
  const pairs: CallPair[] = [];
  const used = new Set<string>();
  messages.forEach((m, i) => {
    const calls = objs(m.content).filter((b) => b.type === 'tool_use');
    const answers = objs(m.content).filter((b) => b.type === 'tool_result');
    const opensWithResults = objs(m.content)
      .slice(0, answers.length)
      .every((b) => b.type === 'tool_result');
    if (answers.length > 0 && !opensWithResults)
      throw new Error(`message ${i}: tool_result after other blocks`);
    const before = messages[i - 1];
    const called = before ? objs(before.content).filter((b) => b.type === 'tool_use') : [];
    if (answers.length > 0 && called.length === 0)
      throw new Error(`message ${i}: tool_result with no tool_use before`);
    if (calls.length === 0) return;
    const next = messages[i + 1];
    if (next?.role !== 'user') throw new Error(`message ${i}: tool_use not followed by a user message`);
    const results = objs(next.content).filter((b) => b.type === 'tool_result');
    if (results.length !== calls.length)
      throw new Error(`message ${i}: ${calls.length} tool_use, ${results.length} tool_result`);
    for (const call of calls) {
      const id = String(call.id);
      if (used.has(id)) throw new Error(`message ${i}: tool_use id ${id} repeats in the request`);
      used.add(id);
    }
    for (const call of calls) {
      const id = String(call.id);
      const found = results.filter((r) => r.tool_use_id === id);
      if (found.length !== 1) throw new Error(`message ${i}: ${found.length} tool_result for ${id}`);
      pairs.push({ call, result: found[0]! });
    }
  });
  return pairs;
}

function geminiPairs(contents: Obj[]): CallPair[] {
  const pairs: CallPair[] = [];
  contents.forEach((c, i) => {
    const calls = objs(c.parts).filter((p) => isObj(p.functionCall));
    const responses = objs(c.parts).filter((p) => isObj(p.functionResponse));
    const previous = contents[i - 1];
    const called = previous ? objs(previous.parts).some((p) => isObj(p.functionCall)) : false;
    if (responses.length > 0 && !called)
      throw new Error(`content ${i}: functionResponse with no call before`);
    if (calls.length === 0) return;
    const next = contents[i + 1];
    if (next?.role !== 'user') throw new Error(`content ${i}: functionCall not followed by a user turn`);
    const opening = objs(next.parts).slice(0, calls.length);
    calls.forEach((call, k) => {
      const response = opening[k]?.functionResponse;
      const name = (call.functionCall as Obj).name;
      if (!isObj(response) || response.name !== name)
        throw new Error(`content ${i}: functionCall ${k} (${String(name)}) has no response at its position`);
      pairs.push({ call, result: opening[k]! });
    });
    if (objs(next.parts).filter((p) => isObj(p.functionResponse)).length !== calls.length)
      throw new Error(`content ${i}: responses outnumber the calls`);
  });
  return pairs;
}
