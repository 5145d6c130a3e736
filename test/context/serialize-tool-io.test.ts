import { describe, expect, it } from 'vitest';
import { toAiSdk, toAnthropic, toGemini, toOpenAIChat, validate } from '../../src/context/index.js';
import type { Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import { assistant, tool, user } from './support/fixtures.js';

function allValid(messages: Message[]) {
  expect(validate(toAiSdk(messages), 'ai-sdk')).toEqual([]);
  expect(validate(toOpenAIChat(messages), 'openai')).toEqual([]);
  expect(validate(toAnthropic(messages), 'anthropic')).toEqual([]);
  expect(validate(toGemini(messages), 'gemini')).toEqual([]);
}

describe('tool inputs and outputs', () => {
  it('non-object inputs become objects; a JSON-object string is parsed', () => {
    const parts: ToolPart[] = [
      { ...tool('a', 'x'), input: '{"q":1}' },
      { ...tool('b', 'x'), input: 'ls -la' },
      { ...tool('c', 'x'), input: [1, 2] },
    ];
    const inputs = toAnthropic([user('q'), assistant(...parts)]).messages[1]!.content.map((b) =>
      b.type === 'tool_use' ? b.input : null,
    );
    expect(inputs).toEqual([{ q: 1 }, { input: 'ls -la' }, { input: [1, 2] }]);
  });

  it('JSON output is serialized as text for OpenAI/Anthropic, kept as json for the AI SDK; empty output is named', () => {
    const history = [
      user('q'),
      assistant(tool('a', '', { output: { rows: 2 } } as Partial<ToolPart>), tool('b', '')),
    ];
    expect(toOpenAIChat(history).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: '{"rows":2}' },
      { role: 'tool', tool_call_id: 'b', content: '(no output)' },
    ]);
    const results = toAiSdk(history).at(-1)!.content as Array<{ output: unknown }>;
    expect(results.map((r) => r.output)).toEqual([
      { type: 'json', value: { rows: 2 } },
      { type: 'text', value: '(no output)' },
    ]);
  });

  it('images a tool returned: Anthropic/Gemini/AI SDK carry them in the result, OpenAI in a user message after the block', () => {
    const image = { type: 'file' as const, mediaType: 'image/png', data: 'aW1n' };
    const history = [user('shot'), assistant({ ...tool('s', 'saved'), attachments: [image] } as ToolPart)];
    allValid(history);
    expect(toAnthropic(history).messages[2]!.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 's',
      content: [
        { type: 'text', text: 'saved' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'aW1n' } },
      ],
    });
    expect(toGemini(history).contents[2]!.parts[1]).toEqual({
      inlineData: { mimeType: 'image/png', data: 'aW1n' },
    });
    expect(toOpenAIChat(history).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by the tool calls above:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,aW1n' } },
      ],
    });
    const aiResult = toAiSdk(history).at(-1)!.content[0] as { output: unknown };
    expect(aiResult.output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'saved' },
        { type: 'image-data', data: 'aW1n', mediaType: 'image/png' },
      ],
    });
  });
});
