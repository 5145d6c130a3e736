import { describe, expect, it } from 'vitest';
import {
  INTERRUPTED_TOOL_ERROR,
  toAiSdk,
  toAnthropic,
  toGemini,
  toOpenAIChat,
  validate,
} from '../../src/context/index.js';
import type { Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import { assistant, tool, user } from './support/fixtures.js';

const failed: ToolPart = {
  type: 'tool',
  callId: 'c2',
  name: 'bash',
  input: { cmd: 'make' },
  state: 'error',
  error: 'exit 2',
};
const pending: ToolPart = {
  type: 'tool',
  callId: 'c3',
  name: 'bash',
  input: { cmd: 'sleep' },
  state: 'running',
};
const parallel: Message[] = [user('go'), assistant('Reading.', tool('c1', 'A'), failed, pending)];

function allValid(messages: Message[]) {
  expect(validate(toAiSdk(messages), 'ai-sdk')).toEqual([]);
  expect(validate(toOpenAIChat(messages), 'openai')).toEqual([]);
  expect(validate(toAnthropic(messages), 'anthropic')).toEqual([]);
  expect(validate(toGemini(messages), 'gemini')).toEqual([]);
}

describe('parallel and interrupted calls expand to call + result', () => {
  it('openai: one assistant with all tool_calls, then one tool message per call in call order', () => {
    expect(toOpenAIChat(parallel)).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"c1"}' } },
          { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"cmd":"make"}' } },
          { id: 'c3', type: 'function', function: { name: 'bash', arguments: '{"cmd":"sleep"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'A' },
      { role: 'tool', tool_call_id: 'c2', content: 'exit 2' },
      { role: 'tool', tool_call_id: 'c3', content: INTERRUPTED_TOOL_ERROR },
    ]);
  });

  it('anthropic: tool_use blocks, then one user turn of tool_results (errors flagged)', () => {
    expect(toAnthropic(parallel).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'c1', name: 'read', input: { path: 'c1' } },
          { type: 'tool_use', id: 'c2', name: 'bash', input: { cmd: 'make' } },
          { type: 'tool_use', id: 'c3', name: 'bash', input: { cmd: 'sleep' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'A' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'exit 2', is_error: true },
          { type: 'tool_result', tool_use_id: 'c3', content: INTERRUPTED_TOOL_ERROR, is_error: true },
        ],
      },
    ]);
  });

  it('gemini: functionCalls, then functionResponses in the same order (output / error)', () => {
    expect(toGemini(parallel).contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Reading.' },
          { functionCall: { name: 'read', args: { path: 'c1' } } },
          { functionCall: { name: 'bash', args: { cmd: 'make' } } },
          { functionCall: { name: 'bash', args: { cmd: 'sleep' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read', response: { output: 'A' } } },
          { functionResponse: { name: 'bash', response: { error: 'exit 2' } } },
          { functionResponse: { name: 'bash', response: { error: INTERRUPTED_TOOL_ERROR } } },
        ],
      },
    ]);
  });

  it('ai-sdk: one tool message with text / error-text results', () => {
    expect(toAiSdk(parallel).at(-1)).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'A' } },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'bash',
          output: { type: 'error-text', value: 'exit 2' },
        },
        {
          type: 'tool-result',
          toolCallId: 'c3',
          toolName: 'bash',
          output: { type: 'error-text', value: INTERRUPTED_TOOL_ERROR },
        },
      ],
    });
  });

  it('a conversation ending on tool results ends there: no "Understood." filler in any format', () => {
    allValid(parallel);
    expect(toOpenAIChat(parallel).at(-1)!.role).toBe('tool');
    expect(toAiSdk(parallel).at(-1)!.role).toBe('tool');
    expect(toAnthropic(parallel).messages.at(-1)!.content[0]!.type).toBe('tool_result');
    expect(toGemini(parallel).contents.at(-1)!.parts[0]).toHaveProperty('functionResponse');
    for (const payload of [
      toOpenAIChat(parallel),
      toAnthropic(parallel),
      toGemini(parallel),
      toAiSdk(parallel),
    ]) {
      expect(JSON.stringify(payload)).not.toContain('Understood');
    }
  });
});

describe('repeated call ids (tau-bench) pair by position', () => {
  const history: Message[] = [
    user('book'),
    assistant(tool('call_1', 'first')),
    assistant(tool('call_1', 'second')),
    user('and?'),
    assistant(tool('call_1', 'third'), tool('call_2', 'fourth')),
    assistant(tool('call_2', 'fifth')),
  ];

  it('every format stays valid with each result after its own call', () => {
    allValid(history);
    const openai = toOpenAIChat(history);
    expect(openai.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'first',
      'second',
      'third',
      'fourth',
      'fifth',
    ]);
    // OpenAI's own models reuse ids across steps (tau-bench), so Chat Completions keeps them.
    expect(openai.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))).toEqual([
      'call_1',
      'call_1',
      'call_1',
      'call_2',
      'call_2',
    ]);
  });

  it('anthropic gets unique ids, each result naming its own call', () => {
    const turns = toAnthropic(history).messages;
    const ids = turns.flatMap((t) => t.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
    const results = turns.flatMap((t) =>
      t.content.flatMap((b) => (b.type === 'tool_result' ? [[b.tool_use_id, b.content]] : [])),
    );
    expect(ids).toEqual(['call_1', 'call_1_2', 'call_1_3', 'call_2', 'call_2_2']);
    expect(results).toEqual([
      ['call_1', 'first'],
      ['call_1_2', 'second'],
      ['call_1_3', 'third'],
      ['call_2', 'fourth'],
      ['call_2_2', 'fifth'],
    ]);
  });

  it('ai-sdk gets unique ids too (it may go to Anthropic), each result naming its own call', () => {
    const messages = toAiSdk(history);
    const pairs = messages.flatMap((m) =>
      m.role === 'tool'
        ? m.content.flatMap((p) =>
            p.type === 'tool-result' && p.output.type === 'text' ? [[p.toolCallId, p.output.value]] : [],
          )
        : [],
    );
    expect(pairs).toEqual([
      ['call_1', 'first'],
      ['call_1_2', 'second'],
      ['call_1_3', 'third'],
      ['call_2', 'fourth'],
      ['call_2_2', 'fifth'],
    ]);
  });
});
