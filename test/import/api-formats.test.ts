import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/import/index.js';
import type { ImportedSession } from '../../src/import/types.js';
import { inputErrorOf } from './data.js';

/** Provider API payloads, in the shapes the OpenAI Responses and Anthropic Messages references give. */

const one = (p: ImportedSession | ImportedSession[]) => {
  if (Array.isArray(p)) throw new Error('expected one session');
  return p;
};

describe('OpenAI Responses API', () => {
  const response = {
    id: 'resp_67ccd2bed1ec8190',
    object: 'response',
    created_at: 1741476542,
    status: 'completed',
    model: 'gpt-4.1-2025-04-14',
    instructions: 'You are a weather bot.',
    output: [
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'The user wants the weather.' }],
        encrypted_content: 'gAAAAB...',
      },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_12345xyz',
        name: 'get_weather',
        arguments: '{"location":"Paris, France"}',
        status: 'completed',
      },
    ],
    usage: {
      input_tokens: 328,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 148,
      output_tokens_details: { reasoning_tokens: 128 },
      total_tokens: 476,
    },
  };

  it('a response: instructions, one assistant step with its reasoning, call and usage', () => {
    const s = one(parseTranscript(JSON.stringify(response), { file: 'response.json' }));
    expect(s.format).toBe('openai-responses');
    expect(s.system).toBe('You are a weather bot.');
    expect(s.messages).toHaveLength(1);
    const step = s.messages[0]!;
    expect(step.model).toBe('gpt-4.1-2025-04-14');
    expect(step.usage).toEqual(response.usage);
    expect(step.message.parts).toEqual([
      {
        type: 'reasoning',
        text: 'The user wants the weather.',
        providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'gAAAAB...' } },
      },
      {
        type: 'tool',
        callId: 'call_12345xyz',
        name: 'get_weather',
        input: { location: 'Paris, France' },
        state: 'pending',
      },
    ]);
  });

  it('a request whose input continues the conversation: short-form messages, the call and its output', () => {
    const request = {
      model: 'gpt-4.1',
      instructions: 'You are a weather bot.',
      input: [
        { role: 'user', content: 'What is the weather in Paris?' },
        ...response.output,
        { type: 'function_call_output', call_id: 'call_12345xyz', output: '{"temperature": 14}' },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'It is 14°C.', annotations: [] }],
        },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks' }] },
      ],
    };
    const s = one(parseTranscript(JSON.stringify(request)));
    expect(s.format).toBe('openai-responses');
    expect(s.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'assistant', 'user']);
    expect(s.messages[1]!.message.parts[1]).toMatchObject({
      state: 'completed',
      output: '{"temperature": 14}',
    });
    // A bare item list (a saved conversation) is the same conversation.
    const list = one(parseTranscript(JSON.stringify(request.input)));
    expect(list.format).toBe('openai-responses');
    expect(list.messages.map((m) => m.message)).toEqual(s.messages.map((m) => m.message));
    // `input` as a plain string is one user message.
    expect(
      one(parseTranscript(JSON.stringify({ model: 'gpt-4.1', input: 'hi' }))).messages[0]!.message,
    ).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'hi' }],
    });
  });

  it('an error names the file, the line and the field', () => {
    const broken = structuredClone(response);
    delete (broken.output[1] as { call_id?: string }).call_id;
    const text = JSON.stringify(broken, null, 2);
    const e = inputErrorOf(() => parseTranscript(text, { file: 'response.json' }));
    expect(e).toMatchObject({ file: 'response.json', field: 'output[1].call_id' });
    // The call_id is missing: the line named is where its item starts.
    expect(text.split('\n')[e.line! - 1]).toContain('{');
    expect(
      text
        .split('\n')
        .slice(e.line!, e.line! + 2)
        .join('\n'),
    ).toContain('"function_call"');
  });
});

describe('Anthropic Messages API', () => {
  const request = {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 1024,
    system: [{ type: 'text', text: 'You are a careful assistant.', cache_control: { type: 'ephemeral' } }],
    tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Use the tool.', signature: 'EqQBCkYIAxgCIkDx' },
          { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { location: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: [{ type: 'text', text: '14°C' }] },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ],
  };
  const response = {
    id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-20250514',
    content: [
      {
        type: 'server_tool_use',
        id: 'srvtoolu_1',
        name: 'web_search',
        input: { query: 'Paris weather tomorrow' },
      },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: [
          {
            type: 'web_search_result',
            url: 'https://example.com',
            title: 'Forecast',
            encrypted_content: 'x',
          },
        ],
      },
      { type: 'text', text: 'Tomorrow: 16°C.' },
    ],
    stop_reason: 'end_turn',
    usage: {
      input_tokens: 2095,
      output_tokens: 503,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  };

  it('a request: system blocks, thinking with its signature, a tool call answered by its result', () => {
    const s = one(parseTranscript(JSON.stringify(request), { file: 'request.json' }));
    expect(s.format).toBe('anthropic');
    expect(s.system).toBe('You are a careful assistant.');
    expect(s.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'user']);
    expect(s.messages[1]!.message.parts).toEqual([
      {
        type: 'reasoning',
        text: 'Use the tool.',
        providerMetadata: { anthropic: { signature: 'EqQBCkYIAxgCIkDx' } },
      },
      {
        type: 'tool',
        callId: 'toolu_01A',
        name: 'get_weather',
        input: { location: 'Paris' },
        state: 'completed',
        output: '14°C',
      },
    ]);
    expect(s.messages[2]!.message.parts).toEqual([{ type: 'text', text: 'And tomorrow?' }]);
  });

  it('a response: one assistant message with its usage; a server tool result answers its call', () => {
    const s = one(parseTranscript(JSON.stringify(response), { file: 'response.json' }));
    expect(s.format).toBe('anthropic');
    expect(s.sessionId).toBe('msg_013Zva2CMHLNnXjNJJKqJ2EF');
    expect(s.messages).toHaveLength(1);
    expect(s.messages[0]!.usage).toEqual(response.usage);
    expect(s.messages[0]!.message.parts).toMatchObject([
      { type: 'tool', callId: 'srvtoolu_1', state: 'completed', output: response.content[1]!.content },
      { type: 'text', text: 'Tomorrow: 16°C.' },
    ]);
    // Without an extension, a response (an object with a `type`) is still one JSON document.
    expect(one(parseTranscript(JSON.stringify(response))).format).toBe('anthropic');
  });

  it('an error names the file, the line and the field', () => {
    const broken = structuredClone(request);
    (broken.messages[1]!.content as { id?: string }[])[1]!.id = '';
    const text = JSON.stringify(broken, null, 2);
    const e = inputErrorOf(() => parseTranscript(text, { file: 'request.json' }));
    expect(e).toMatchObject({ file: 'request.json', field: 'messages[1].content[1].id' });
    expect(text.split('\n')[e.line! - 1]).toContain('"id": ""');
  });
});
