import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';

type Msg = { role: unknown; content: unknown };
const call = (id: string) => ({ type: 'tool-call', toolCallId: id, toolName: 'read', input: {} });
const result = (id: string) => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: 'read',
  output: { type: 'text', value: 'r' },
});
const good = (): Msg[] => [
  { role: 'system', content: 'You are helpful.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'hi' },
      { type: 'file', data: 'aGk=', mediaType: 'image/png' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'x' } } },
      call('a'),
      call('b'),
    ],
  },
  { role: 'tool', content: [result('b')] },
  { role: 'tool', content: [result('a')] },
  { role: 'assistant', content: 'done' },
  { role: 'user', content: 'again' },
  { role: 'assistant', content: [call('c')] },
  { role: 'tool', content: [result('c')] },
];
const rules = (payload: unknown) => validate(payload, 'ai-sdk').map((v) => v.rule);
const edit = (change: (m: Msg[]) => void) => {
  const g = good();
  change(g);
  return g;
};

describe('validate(ai-sdk)', () => {
  it('accepts valid messages, including ones ending on a tool message', () => {
    expect(validate(good(), 'ai-sdk')).toEqual([]);
  });

  const bad: Array<[string, () => unknown, string]> = [
    ['an object payload', () => ({ messages: good() }), 'payload-shape'],
    ['no messages', () => [], 'empty-messages'],
    ['a message that is not an object', () => edit((m) => m.push('x' as never)), 'message-shape'],
    ['an unknown role', () => edit((m) => m.push({ role: 'model', content: 'x' })), 'role'],
    [
      'empty user content',
      () =>
        edit((m) => {
          m[1] = { role: 'user', content: [] };
        }),
      'empty-content',
    ],
    [
      'a blank text part',
      () =>
        edit((m) => {
          m[5] = { role: 'assistant', content: [{ type: 'text', text: ' ' }] };
        }),
      'empty-content',
    ],
    [
      'an empty system message',
      () =>
        edit((m) => {
          m[0] = { role: 'system', content: '' };
        }),
      'empty-content',
    ],
    [
      'a system message after the conversation started',
      () => edit((m) => m.push({ role: 'system', content: 'late' })),
      'system-position',
    ],
    ['an assistant opening the conversation', () => edit((m) => m.splice(1, 1)), 'first-message-user'],
    [
      'a tool-call in a user message',
      () =>
        edit((m) => {
          m[6] = { role: 'user', content: [call('z')] };
        }),
      'part-shape',
    ],
    [
      'a tool message with string content',
      () =>
        edit((m) => {
          m[4] = { role: 'tool', content: 'A' };
        }),
      'part-shape',
    ],
    [
      'a tool-result without output type',
      () =>
        edit((m) => {
          m[8] = { role: 'tool', content: [{ ...result('c'), output: 'r' }] };
        }),
      'tool-result-output',
    ],
    ['a call without result', () => edit((m) => m.splice(4, 1)), 'missing-tool-result'],
    ['a call at the end without result', () => edit((m) => m.pop()), 'missing-tool-result'],
    [
      'a result after a user message',
      () => edit((m) => m.splice(4, 0, { role: 'user', content: 'hm' })),
      'orphan-tool-result',
    ],
    [
      'a result with an unknown id',
      () =>
        edit((m) => {
          m[3] = { role: 'tool', content: [result('q')] };
        }),
      'orphan-tool-result',
    ],
    [
      'two results for one call',
      () =>
        edit((m) => {
          m[4] = { role: 'tool', content: [result('a'), result('a')] };
        }),
      'duplicate-tool-result',
    ],
    [
      'two calls with one id in one message',
      () =>
        edit((m) => {
          m[2] = { role: 'assistant', content: [call('a'), call('a')] };
          m[3] = { role: 'tool', content: [result('a')] };
          m[4] = { role: 'tool', content: [result('a')] };
        }),
      'duplicate-tool-call-id',
    ],
    [
      'a call id reused by a later message',
      () =>
        edit((m) => {
          m[7] = { role: 'assistant', content: [call('a')] };
          m[8] = { role: 'tool', content: [result('a')] };
        }),
      'duplicate-tool-call-id',
    ],
  ];
  for (const [name, payload, rule] of bad) {
    it(`rejects ${name} (${rule})`, () => {
      expect(rules(payload())).toContain(rule);
    });
  }
});
