import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';

const call = (id: string, name = 'read') => ({ id, type: 'function', function: { name, arguments: '{}' } });
const good = () => [
  { role: 'system', content: 'You are helpful.' },
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
  { role: 'tool', tool_call_id: 'b', content: 'B' },
  { role: 'tool', tool_call_id: 'a', content: 'A' },
  { role: 'assistant', content: 'done' },
  { role: 'system', content: 'mid-conversation system text is allowed' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'https://x/y.png' } },
    ],
  },
  // tau-bench reuses ids: the same id again in a later turn pairs with its own result.
  { role: 'assistant', content: 'again', tool_calls: [call('a')] },
  { role: 'tool', tool_call_id: 'a', content: 'A2' },
];
const rules = (payload: unknown) => validate(payload, 'openai').map((v) => v.rule);

describe('validate(openai)', () => {
  it('accepts a valid request, including one ending on tool messages', () => {
    expect(validate(good(), 'openai')).toEqual([]);
  });

  const bad: Array<[string, () => unknown, string]> = [
    ['not an array', () => ({ messages: [] }), 'payload-shape'],
    ['no messages', () => [], 'empty-messages'],
    ['a message that is not an object', () => [...good(), 'x'], 'message-shape'],
    ['an unknown role', () => [{ role: 'model', content: 'x' }], 'role'],
    ['empty user content', () => [{ role: 'user', content: '' }], 'empty-content'],
    ['empty system content array', () => [{ role: 'system', content: [] }], 'empty-content'],
    [
      'assistant with neither content nor calls',
      () => [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null },
      ],
      'empty-content',
    ],
    [
      'a tool call without id',
      () => [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ type: 'function', function: { name: 'x', arguments: '{}' } }],
        },
      ],
      'tool-call-shape',
    ],
    [
      'arguments that are not a string',
      () => [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'x', arguments: {} } }],
        },
        { role: 'tool', tool_call_id: 'a', content: 'r' },
      ],
      'tool-call-shape',
    ],
    [
      'a tool message without tool_call_id',
      () => {
        const g = good();
        g[3] = { role: 'tool', content: 'B' } as never;
        return g;
      },
      'tool-message-shape',
    ],
    ['a tool message first', () => [{ role: 'tool', tool_call_id: 'a', content: 'x' }], 'orphan-tool-result'],
    [
      'a tool message after a user message',
      () => {
        const g = good();
        g.splice(4, 0, { role: 'user', content: 'interrupting' });
        return g;
      },
      'orphan-tool-result',
    ],
    [
      'a tool message with an unknown id',
      () => {
        const g = good();
        g[3] = { role: 'tool', tool_call_id: 'zzz', content: 'B' };
        return g;
      },
      'orphan-tool-result',
    ],
    [
      'two results for one call',
      () => {
        const g = good();
        g.splice(5, 0, { role: 'tool', tool_call_id: 'a', content: 'again' });
        return g;
      },
      'duplicate-tool-result',
    ],
    [
      'a call left unanswered before the next message',
      () => {
        const g = good();
        g.splice(4, 1);
        return g;
      },
      'missing-tool-result',
    ],
    ['a call left unanswered at the end', () => good().slice(0, 9), 'missing-tool-result'],
    [
      'two calls with one id in one message',
      () => {
        const g = good();
        g[2] = { role: 'assistant', content: null, tool_calls: [call('a'), call('a', 'bash')] };
        g[3] = { role: 'tool', tool_call_id: 'a', content: 'B' };
        return g;
      },
      'duplicate-tool-call-id',
    ],
  ];
  for (const [name, payload, rule] of bad) {
    it(`rejects ${name} (${rule})`, () => {
      expect(rules(payload())).toContain(rule);
    });
  }
});
