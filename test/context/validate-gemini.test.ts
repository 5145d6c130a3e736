import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';

type Content = { role?: unknown; parts?: unknown };
const good = (): { systemInstruction?: unknown; contents: Content[] } => ({
  systemInstruction: { parts: [{ text: 'You are helpful.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: 'image/png', data: 'aGk=' } }] },
    {
      role: 'model',
      parts: [
        { text: 'thinking', thought: true, thoughtSignature: 'c2ln' },
        { functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: 'c2ln' },
        { functionCall: { name: 'bash', args: {} } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'read', response: { output: 'A' } } },
        { functionResponse: { name: 'bash', response: { error: 'failed' } } },
        { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/x.pdf' } },
      ],
    },
    { role: 'model', parts: [{ functionCall: { name: 'read', args: {} } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'read', response: { output: 'again' } } }] },
  ],
});
const rules = (payload: unknown) => validate(payload, 'gemini').map((v) => v.rule);
const edit = (change: (c: Content[]) => void) => {
  const g = good();
  change(g.contents);
  return g;
};

describe('validate(gemini)', () => {
  it('accepts a valid request, including one ending on function responses', () => {
    expect(validate(good(), 'gemini')).toEqual([]);
  });

  it('accepts optional call ids that match, and an id reused in a later turn', () => {
    const call = (id: string, name: string) => ({ functionCall: { id, name, args: {} } });
    const response = (id: string, name: string) => ({ functionResponse: { id, name, response: {} } });
    const withIds = edit((c) => {
      c[1] = { role: 'model', parts: [call('c1', 'read'), call('c2', 'bash')] };
      c[2] = { role: 'user', parts: [response('c1', 'read'), response('c2', 'bash')] };
      c[3] = { role: 'model', parts: [call('c1', 'read')] };
      c[4] = { role: 'user', parts: [response('c1', 'read')] };
    });
    expect(validate(withIds, 'gemini')).toEqual([]);
  });

  const bad: Array<[string, () => unknown, string]> = [
    ['an array payload', () => good().contents, 'payload-shape'],
    ['an empty systemInstruction', () => ({ ...good(), systemInstruction: { parts: [] } }), 'system-shape'],
    ['no contents', () => ({ contents: [] }), 'empty-contents'],
    ['a content that is not an object', () => edit((c) => c.push(null as never)), 'content-shape'],
    ['the assistant role', () => edit((c) => c.push({ role: 'assistant', parts: [{ text: 'x' }] })), 'role'],
    ['a system role', () => edit((c) => c.push({ role: 'system', parts: [{ text: 'x' }] })), 'role'],
    [
      'a model turn first',
      () => edit((c) => c.unshift({ role: 'model', parts: [{ text: 'x' }] })),
      'first-content-user',
    ],
    ['a content without parts', () => edit((c) => c.push({ role: 'model', parts: [] })), 'empty-parts'],
    [
      'an empty text part',
      () => edit((c) => c.push({ role: 'model', parts: [{ text: '' }] })),
      'empty-parts',
    ],
    [
      'a part with two kinds of data',
      () =>
        edit((c) =>
          c.push({ role: 'model', parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: 'x' } }] }),
        ),
      'part-shape',
    ],
    [
      'a part with no data',
      () => edit((c) => c.push({ role: 'model', parts: [{ thought: true }] })),
      'part-shape',
    ],
    [
      'a functionCall without name',
      () =>
        edit((c) => {
          c[3] = { role: 'model', parts: [{ functionCall: { args: {} } }] };
        }),
      'part-shape',
    ],
    [
      'a functionCall from the user',
      () => edit((c) => c.push({ role: 'user', parts: [{ functionCall: { name: 'x', args: {} } }] })),
      'part-role',
    ],
    [
      'a functionResponse from the model',
      () =>
        edit((c) => c.push({ role: 'model', parts: [{ functionResponse: { name: 'read', response: {} } }] })),
      'part-role',
    ],
    [
      'a functionResponse with no call before',
      () =>
        edit((c) => {
          c[0] = { role: 'user', parts: [{ functionResponse: { name: 'read', response: {} } }] };
        }),
      'orphan-function-response',
    ],
    [
      'a call answered two turns late',
      () => edit((c) => c.splice(4, 0, { role: 'user', parts: [{ text: 'wait' }] })),
      'missing-function-response',
    ],
    ['a call at the end', () => edit((c) => c.pop()), 'missing-function-response'],
    [
      'fewer responses than calls',
      () =>
        edit((c) => {
          c[2] = { role: 'user', parts: [{ functionResponse: { name: 'read', response: {} } }] };
        }),
      'function-response-count',
    ],
    [
      'responses in the wrong order',
      () =>
        edit((c) => {
          c[2] = {
            role: 'user',
            parts: [
              { functionResponse: { name: 'bash', response: {} } },
              { functionResponse: { name: 'read', response: {} } },
            ],
          };
        }),
      'function-response-name',
    ],
    [
      'two calls of one turn with one id',
      () =>
        edit((c) => {
          c[1] = {
            role: 'model',
            parts: [
              { functionCall: { id: 'x', name: 'read', args: {} } },
              { functionCall: { id: 'x', name: 'bash', args: {} } },
            ],
          };
        }),
      'duplicate-tool-call-id',
    ],
    [
      'a response id naming another call',
      () =>
        edit((c) => {
          c[1] = {
            role: 'model',
            parts: [
              { functionCall: { id: 'x', name: 'read', args: {} } },
              { functionCall: { id: 'y', name: 'bash', args: {} } },
            ],
          };
          c[2] = {
            role: 'user',
            parts: [
              { functionResponse: { id: 'y', name: 'read', response: {} } },
              { functionResponse: { id: 'x', name: 'bash', response: {} } },
            ],
          };
        }),
      'function-response-id',
    ],
    [
      'args that are not an object',
      () =>
        edit((c) => {
          c[3] = { role: 'model', parts: [{ functionCall: { name: 'read', args: 'x' } }] };
        }),
      'function-args',
    ],
    [
      'a response that is not an object',
      () =>
        edit((c) => {
          c[4] = { role: 'user', parts: [{ functionResponse: { name: 'read', response: 'x' } }] };
        }),
      'function-args',
    ],
  ];
  for (const [name, payload, rule] of bad) {
    it(`rejects ${name} (${rule})`, () => {
      expect(rules(payload())).toContain(rule);
    });
  }
});
