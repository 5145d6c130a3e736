import { isObj, nonEmptyString, type Obj, UniqueIds, type Violation, Violations } from './types.js';

const DATA_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
];

/**
 * Gemini `generateContent` rules: roles user/model only; contents start with a user turn; no empty
 * parts or empty text; each part holds one kind of data; functionCall only from the model,
 * functionResponse only from the user; a model turn's functionCalls are answered by the very next
 * content, with as many functionResponses, with the same names in the same order. Call ids are
 * optional in Gemini; where a turn's calls carry them they are unique in that turn, and a response
 * that carries one names the call it answers (the call at its position).
 */
export function validateGemini(payload: unknown): Violation[] {
  const v = new Violations();
  if (!isObj(payload) || !Array.isArray(payload.contents)) {
    v.add(-1, 'payload-shape', 'expected { systemInstruction?, contents: [...] }');
    return v.list;
  }
  checkSystem(v, payload.systemInstruction);
  const contents: unknown[] = payload.contents;
  if (contents.length === 0) v.add(-1, 'empty-contents', 'a request needs at least one content');
  let expected: Expected | null = null;
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    if (!isObj(content)) {
      v.add(i, 'content-shape', 'a content must be an object');
      continue;
    }
    const role = content.role;
    if (role !== 'user' && role !== 'model')
      v.add(i, 'role', `role must be user or model, not ${JSON.stringify(role)}`);
    if (i === 0 && role !== 'user') v.add(i, 'first-content-user', 'contents must start with a user turn');
    const parts = checkParts(v, i, content);
    const responses = parts.filter((p) => isObj(p.functionResponse)).map((p) => callOf(p.functionResponse));
    if (role === 'model' && responses.length > 0)
      v.add(i, 'part-role', 'functionResponse parts belong to a user turn');
    if (expected !== null) checkAnswer(v, i, expected, responses);
    else if (responses.length > 0)
      v.add(i, 'orphan-function-response', 'functionResponse without a functionCall just before');
    const calls = parts.filter((p) => isObj(p.functionCall)).map((p) => callOf(p.functionCall));
    if (role === 'user' && calls.length > 0)
      v.add(i, 'part-role', 'functionCall parts belong to a model turn');
    const ids = new UniqueIds('functionCall', 'turn');
    for (const call of calls) if (call.id !== undefined) ids.check(v, i, call.id);
    expected = calls.length > 0 ? { calls, at: i } : null;
  }
  if (expected !== null) {
    v.add(
      expected.at,
      'missing-function-response',
      `functionCall without a response: ${names(expected.calls)}`,
    );
  }
  return v.list;
}

/** A functionCall or functionResponse: its name, and its optional id. */
interface Call {
  name: string;
  id?: string;
}
interface Expected {
  calls: Call[];
  at: number;
}

function callOf(value: unknown): Call {
  if (!isObj(value)) return { name: '' };
  const name = typeof value.name === 'string' ? value.name : '';
  return nonEmptyString(value.id) ? { name, id: value.id } : { name };
}

const names = (calls: Call[]): string => calls.map((c) => c.name).join(', ');

function checkSystem(v: Violations, system: unknown): void {
  if (system === undefined) return;
  const ok =
    isObj(system) &&
    Array.isArray(system.parts) &&
    system.parts.length > 0 &&
    system.parts.every((p) => isObj(p) && nonEmptyString(p.text));
  if (!ok) v.add(-1, 'system-shape', 'systemInstruction must hold non-empty text parts');
}

function checkParts(v: Violations, i: number, content: Obj): Obj[] {
  if (!Array.isArray(content.parts) || content.parts.length === 0) {
    v.add(i, 'empty-parts', 'a content needs at least one part');
    return [];
  }
  const parts: Obj[] = [];
  for (const part of content.parts) {
    if (!isObj(part)) {
      v.add(i, 'part-shape', 'a part must be an object');
      continue;
    }
    const fields = DATA_FIELDS.filter((f) => part[f] !== undefined);
    if (fields.length !== 1)
      v.add(i, 'part-shape', `a part holds exactly one kind of data, found ${fields.length}`);
    if (part.text !== undefined && !nonEmptyString(part.text))
      v.add(i, 'empty-parts', 'text parts must not be empty');
    if (part.functionCall !== undefined) checkCall(v, i, part.functionCall);
    if (part.functionResponse !== undefined) checkResponse(v, i, part.functionResponse);
    parts.push(part);
  }
  return parts;
}

function checkCall(v: Violations, i: number, call: unknown): void {
  if (!isObj(call) || !nonEmptyString(call.name)) {
    v.add(i, 'part-shape', 'functionCall needs a name');
    return;
  }
  if (call.args !== undefined && !isObj(call.args))
    v.add(i, 'function-args', `functionCall ${call.name} args must be an object`);
}

function checkResponse(v: Violations, i: number, response: unknown): void {
  if (!isObj(response) || !nonEmptyString(response.name)) {
    v.add(i, 'part-shape', 'functionResponse needs a name');
    return;
  }
  if (!isObj(response.response))
    v.add(i, 'function-args', `functionResponse ${response.name} response must be an object`);
}

function checkAnswer(v: Violations, i: number, expected: Expected, responses: Call[]): void {
  const calls = expected.calls;
  if (responses.length === 0) {
    v.add(
      expected.at,
      'missing-function-response',
      `functionCall not answered by the next content: ${names(calls)}`,
    );
    return;
  }
  if (responses.length !== calls.length) {
    v.add(
      i,
      'function-response-count',
      `${responses.length} functionResponse parts for ${calls.length} functionCall parts`,
    );
  }
  const mismatch = responses.findIndex((r, k) => calls[k] !== undefined && calls[k].name !== r.name);
  if (mismatch !== -1) {
    v.add(
      i,
      'function-response-name',
      `functionResponse ${responses[mismatch]!.name} does not match functionCall ${calls[mismatch]!.name}`,
    );
  }
  const wrongId = responses.findIndex(
    (r, k) => r.id !== undefined && calls[k]?.id !== undefined && calls[k].id !== r.id,
  );
  if (wrongId !== -1) {
    v.add(
      i,
      'function-response-id',
      `functionResponse id ${responses[wrongId]!.id} does not match functionCall id ${calls[wrongId]!.id}`,
    );
  }
}
