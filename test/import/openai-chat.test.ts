import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_RESULT, parseOpenAIChat, parseTranscript } from '../../src/import/index.js';
import type { ImportedSession } from '../../src/import/types.js';
import type { ToolPart } from '../../src/model/parts.js';
import { inputErrorOf } from './data.js';

const call = (id: string, name = 'lookup', args = '{"q":1}') => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

function tools(session: ImportedSession): ToolPart[] {
  return session.messages.flatMap((m) => m.message.parts.filter((p): p is ToolPart => p.type === 'tool'));
}

describe('parseOpenAIChat', () => {
  it('maps roles, leading system to `system`, later system messages in place', () => {
    const s = parseOpenAIChat({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'developer', content: [{ type: 'text', text: 'and kind' }] },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'system', content: 'late note' },
      ],
    });
    expect(s.system).toBe('be brief\n\nand kind');
    expect(s.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'system']);
    expect(s.messages[2]!.message.parts).toEqual([{ type: 'text', text: 'late note' }]);
  });

  it('turns image_url parts into file parts: data URLs inline, others by url', () => {
    const s = parseOpenAIChat([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
    expect(s.messages[0]!.message.parts).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'file', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
    ]);
  });

  it('pairs repeated ids by order, keeps raw non-JSON arguments, keeps orphan results as reported text', () => {
    const s = parseOpenAIChat([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('c1')] },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'other', '{broken')] },
      { role: 'tool', tool_call_id: 'c1', content: 'first' },
      { role: 'tool', tool_call_id: 'c1', content: 'second' },
      { role: 'tool', tool_call_id: 'ghost', content: 'nobody asked' },
      { role: 'assistant', content: 'done' },
    ]);
    const [a, b] = tools(s);
    expect(a).toMatchObject({ name: 'lookup', input: { q: 1 }, state: 'completed', output: 'first' });
    expect(b).toMatchObject({ name: 'other', input: '{broken', state: 'completed', output: 'second' });
    expect(s.issues).toMatchObject([{ kind: 'orphan-result', field: '[5]' }]);
    expect(s.warnings.some((w) => w.includes('c1 repeats'))).toBe(true);
  });

  it('an unanswered call is an error unless it is in the last message (still in flight)', () => {
    const s = parseOpenAIChat([
      { role: 'assistant', content: null, tool_calls: [call('a')] },
      { role: 'user', content: 'never mind' },
      { role: 'assistant', content: null, tool_calls: [call('b')] },
    ]);
    const [a, b] = tools(s);
    expect(a).toMatchObject({ state: 'error', error: NO_RESULT });
    expect(b).toMatchObject({ state: 'pending' });
  });

  it('property: results land on the earliest unanswered call with their id', () => {
    const ids = fc.constantFrom('x', 'y', 'z');
    fc.assert(
      fc.property(fc.array(ids, { minLength: 1, maxLength: 12 }), (callIds) => {
        // Each call answered right after its own step, outputs numbered in call order.
        const messages = callIds.flatMap((id, i) => [
          { role: 'assistant', content: null, tool_calls: [call(id)] },
          { role: 'tool', tool_call_id: id, content: `out-${i}` },
        ]);
        const outputs = tools(parseOpenAIChat(messages)).map((t) =>
          t.state === 'completed' ? t.output : null,
        );
        expect(outputs).toEqual(callIds.map((_, i) => `out-${i}`));
      }),
    );
  });

  it('two calls with one id in one message are rejected, naming file, line, field and id', () => {
    // The model's rule (call ids unique within a message): OpenAI itself rejects such a message.
    const text = JSON.stringify(
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [call('c1'), call('c1', 'other')] },
        { role: 'tool', tool_call_id: 'c1', content: 'first' },
        { role: 'tool', tool_call_id: 'c1', content: 'second' },
      ],
      null,
      2,
    );
    const e = inputErrorOf(() => parseTranscript(text, { file: 'dup.json', format: 'openai' }));
    expect(e).toMatchObject({ file: 'dup.json', line: 6, field: '[1].parts[1].callId' });
    expect(e.message).toContain('tool call id "c1" is already used by parts[0] of this message');
  });

  it('property: calls with repeated ids in successive messages, answered later, still pair in order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('p', 'q'), { minLength: 1, maxLength: 8 }), (callIds) => {
        const messages = [
          ...callIds.map((id) => ({ role: 'assistant', content: null, tool_calls: [call(id)] })),
          ...callIds.map((id, i) => ({ role: 'tool', tool_call_id: id, content: `r${i}` })),
        ];
        const outputs = tools(parseOpenAIChat(messages)).map((t) =>
          t.state === 'completed' ? t.output : null,
        );
        expect(outputs).toEqual(callIds.map((_, i) => `r${i}`));
      }),
    );
  });
});

describe('bad OpenAI Chat input names file, line and field', () => {
  const file = 'chat.json';
  const parse = (value: unknown) => {
    const text = JSON.stringify(value, null, 2);
    return () => parseTranscript(text, { file, format: 'openai' });
  };

  it('not an array', () => {
    const e = inputErrorOf(parse({ messages: 'nope' }));
    expect(e).toMatchObject({ file, field: 'messages', line: 2 });
  });

  it('message without role', () => {
    const e = inputErrorOf(parse([{ role: 'user', content: 'a' }, { content: 'b' }]));
    expect(e.message).toContain('missing role');
    expect(e).toMatchObject({ file, field: '[1].role', line: 6 });
  });

  it('unknown role', () => {
    const e = inputErrorOf(
      parse({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'robot', content: 'b' },
        ],
      }),
    );
    expect(e.message).toMatch(/unknown role "robot"/);
    expect(e).toMatchObject({ file, field: 'messages[1].role', line: 8 });
    expect(e.message).toContain('chat.json:line 8, field messages[1].role');
  });

  it('tool message without tool_call_id', () => {
    const e = inputErrorOf(
      parse([
        { role: 'assistant', content: 'x' },
        { role: 'tool', content: 'r' },
      ]),
    );
    expect(e).toMatchObject({ file, field: '[1].tool_call_id', line: 6 });
  });

  it('unknown content part type', () => {
    const e = inputErrorOf(parse([{ role: 'user', content: [{ type: 'hologram' }] }]));
    expect(e).toMatchObject({ file, field: '[0].content[0].type', line: 6 });
  });

  it('tool call without id', () => {
    const e = inputErrorOf(
      parse([
        { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f' } }] },
      ]),
    );
    expect(e).toMatchObject({ file, field: '[0].tool_calls[0].id' });
    expect(e.line).toBe(6);
  });
});
