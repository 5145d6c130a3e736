import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';

type Msg = { role: string; content: unknown };
const good = (): { system?: unknown; messages: Msg[] } => ({
  system: 'You are helpful.',
  messages: [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'let me look', signature: 'c2ln' },
        { type: 'redacted_thinking', data: 'cmVk' },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
        { type: 'tool_use', id: 'toolu_2', name: 'read', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'B' },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'text', text: 'A' }],
          is_error: true,
        },
        { type: 'text', text: 'and also this' },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'bash', input: { cmd: 'ls' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: 'ok' }] },
  ],
});
const rules = (payload: unknown) => validate(payload, 'anthropic').map((v) => v.rule);
const withMessages = (edit: (m: Msg[]) => void) => {
  const g = good();
  edit(g.messages);
  return g;
};
const assistantBlocks = (blocks: unknown[]) =>
  withMessages((m) => {
    m[1] = { role: 'assistant', content: blocks };
  });

describe('validate(anthropic)', () => {
  it('accepts a valid request, including one ending on tool results', () => {
    expect(validate(good(), 'anthropic')).toEqual([]);
  });

  const bad: Array<[string, () => unknown, string]> = [
    ['an array payload', () => good().messages, 'payload-shape'],
    ['a system that is not text', () => ({ ...good(), system: [{ type: 'image' }] }), 'system-shape'],
    ['no messages', () => ({ messages: [] }), 'empty-messages'],
    ['a message that is not an object', () => withMessages((m) => m.push(3 as never)), 'message-shape'],
    [
      'a system message in messages',
      () => withMessages((m) => m.unshift({ role: 'system', content: 'x' })),
      'system-role',
    ],
    ['an unknown role', () => withMessages((m) => m.splice(1, 0, { role: 'tool', content: 'x' })), 'role'],
    [
      'an assistant first',
      () => withMessages((m) => m.unshift({ role: 'assistant', content: 'x' })),
      'first-message-user',
    ],
    [
      'two user messages in a row',
      () => withMessages((m) => m.unshift({ role: 'user', content: 'x' })),
      'alternation',
    ],
    [
      'empty content array',
      () =>
        withMessages((m) => {
          m[0] = { role: 'user', content: [] };
        }),
      'empty-content',
    ],
    [
      'blank string content',
      () =>
        withMessages((m) => {
          m[0] = { role: 'user', content: '  ' };
        }),
      'empty-content',
    ],
    [
      'a blank text block',
      () =>
        withMessages((m) => {
          m[0] = { role: 'user', content: [{ type: 'text', text: '\n' }] };
        }),
      'empty-content',
    ],
    [
      'an empty text inside a tool_result',
      () =>
        withMessages((m) => {
          m[4] = {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: [{ type: 'text', text: '' }] }],
          };
        }),
      'empty-content',
    ],
    [
      'a block without type',
      () =>
        withMessages((m) => {
          m[0] = { role: 'user', content: [{ text: 'x' }] };
        }),
      'block-shape',
    ],
    [
      'tool_use in a user message',
      () =>
        withMessages((m) => {
          m[0] = { role: 'user', content: [{ type: 'tool_use', id: 'x', name: 'n', input: {} }] };
        }),
      'block-role',
    ],
    [
      'text before tool_result',
      () =>
        withMessages((m) => {
          m[4] = {
            role: 'user',
            content: [
              { type: 'text', text: 'first' },
              { type: 'tool_result', tool_use_id: 'toolu_3', content: 'ok' },
            ],
          };
        }),
      'tool-result-first',
    ],
    [
      'a tool_result with no call before it',
      () =>
        withMessages((m) => {
          m[0] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] };
        }),
      'orphan-tool-result',
    ],
    [
      'a tool_result two messages late',
      () =>
        withMessages((m) =>
          m.splice(4, 0, { role: 'assistant', content: 'wait' }, { role: 'user', content: 'go' }),
        ),
      'orphan-tool-result',
    ],
    [
      'two results for one call',
      () =>
        withMessages((m) => {
          m[4] = {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_3', content: 'a' },
              { type: 'tool_result', tool_use_id: 'toolu_3', content: 'b' },
            ],
          };
        }),
      'duplicate-tool-result',
    ],
    [
      'a call without result',
      () =>
        withMessages((m) => {
          m[2] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'B' }] };
        }),
      'missing-tool-result',
    ],
    ['a call at the end without result', () => withMessages((m) => m.pop()), 'missing-tool-result'],
    [
      'a thinking block without signature',
      () =>
        assistantBlocks([
          { type: 'thinking', thinking: 'hmm' },
          { type: 'text', text: 'x' },
        ]),
      'thinking-signature',
    ],
    [
      'a redacted_thinking block without data',
      () => assistantBlocks([{ type: 'redacted_thinking' }, { type: 'text', text: 'x' }]),
      'thinking-signature',
    ],
    [
      'a tool_use id with a dot',
      () =>
        withMessages((m) => {
          m[3] = {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'call.3', name: 'bash', input: {} }],
          };
          m[4] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call.3', content: 'ok' }] };
        }),
      'tool-use-id-format',
    ],
    [
      'a repeated tool_use id',
      () =>
        withMessages((m) => {
          m[3] = {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }],
          };
          m[4] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] };
        }),
      'duplicate-tool-call-id',
    ],
    [
      'a tool_use input that is a string',
      () =>
        withMessages((m) => {
          m[3] = {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_3', name: 'bash', input: 'ls' }],
          };
        }),
      'tool-use-input',
    ],
    [
      'a final assistant turn ending in whitespace',
      () => withMessages((m) => m.push({ role: 'assistant', content: [{ type: 'text', text: 'prefill ' }] })),
      'final-assistant-whitespace',
    ],
  ];
  for (const [name, payload, rule] of bad) {
    it(`rejects ${name} (${rule})`, () => {
      expect(rules(payload())).toContain(rule);
    });
  }
});
