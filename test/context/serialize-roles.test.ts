import { describe, expect, it } from 'vitest';
import {
  splitAiSdkSystem,
  toAiSdk,
  toAnthropic,
  toGemini,
  toOpenAIChat,
  validate,
} from '../../src/context/index.js';
import type { Message } from '../../src/model/message.js';
import type { ReasoningPart } from '../../src/model/parts.js';
import { assistant, tool, user } from './support/fixtures.js';

const sys = (text: string): Message => ({ role: 'system', parts: [{ type: 'text', text }] });
const signed: ReasoningPart = {
  type: 'reasoning',
  text: 'plan: read a',
  providerMetadata: { anthropic: { signature: 'EqQBCkYI+/=' } },
};
const unsigned: ReasoningPart = { type: 'reasoning', text: 'bare thought' };
const redacted: ReasoningPart = {
  type: 'reasoning',
  text: '',
  providerMetadata: { anthropic: { redactedData: 'ENCRYPTED' } },
};
const gemini: ReasoningPart = {
  type: 'reasoning',
  text: 'g thought',
  providerMetadata: { google: { thoughtSignature: 'R1NJRw==' } },
};

describe('Anthropic turn structure', () => {
  it('merges adjacent same-role turns (A001-11) and starts with a user turn', () => {
    const out = toAnthropic([assistant('summary'), user('one'), user('two'), assistant('a'), assistant('b')]);
    expect(out.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '(continuing)' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'summary' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('a user message after tool results joins their turn, results first', () => {
    const out = toAnthropic([user('q'), assistant(tool('c1', 'A')), user('thanks')]);
    expect(out.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'c1', content: 'A' },
        { type: 'text', text: 'thanks' },
      ],
    });
  });

  it('every system message, wherever it is, goes to `system` in order (A002-05)', () => {
    const out = toAnthropic([sys('prompt'), user('q'), sys('late note'), assistant('a')]);
    expect(out.system).toBe('prompt\n\nlate note');
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('keeps signed and redacted thinking byte for byte, drops unsigned thinking whole', () => {
    const out = toAnthropic([user('q'), assistant(signed, unsigned, redacted, 'answer')]);
    expect(out.messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'plan: read a', signature: 'EqQBCkYI+/=' },
      { type: 'redacted_thinking', data: 'ENCRYPTED' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it('an assistant turn holding only unsigned reasoning disappears and its neighbours merge', () => {
    const out = toAnthropic([user('a'), assistant(unsigned), user('b')]);
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
    expect(validate(out, 'anthropic')).toEqual([]);
  });

  it('a request ending on an assistant turn (prefill) loses only trailing whitespace of its last text', () => {
    const out = toAnthropic([user('q'), assistant(signed, 'answer \n')]);
    expect(out.messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'plan: read a', signature: 'EqQBCkYI+/=' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it('an empty history still makes a valid request', () => {
    expect(toAnthropic([])).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: '(continuing)' }] }],
    });
    expect(validate(toGemini([]), 'gemini')).toEqual([]);
    expect(validate(toOpenAIChat([]), 'openai')).toEqual([]);
    expect(validate(toAiSdk([]), 'ai-sdk')).toEqual([]);
  });
});

describe('Gemini', () => {
  it('system to systemInstruction, model role, thought parts with their Gemini signature only', () => {
    const call = { ...tool('c1', 'A'), providerMetadata: { google: { thoughtSignature: 'Q0FMTA==' } } };
    const out = toGemini([sys('prompt'), user('q'), assistant(gemini, signed, call)]);
    expect(out.systemInstruction).toEqual({ parts: [{ text: 'prompt' }] });
    expect(out.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'g thought', thought: true, thoughtSignature: 'R1NJRw==' },
        { text: 'plan: read a', thought: true },
        { functionCall: { name: 'read', args: { path: 'c1' } }, thoughtSignature: 'Q0FMTA==' },
      ],
    });
  });

  it('files by data and by URL become inlineData and fileData', () => {
    const out = toGemini([
      {
        role: 'user',
        parts: [
          { type: 'file', mediaType: 'image/png', data: 'aGk=' },
          { type: 'file', mediaType: 'application/pdf', url: 'gs://b/x.pdf' },
        ],
      },
    ]);
    expect(out.contents[0]!.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'aGk=' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/x.pdf' } },
    ]);
  });
});

describe('OpenAI Chat', () => {
  it('drops reasoning, keeps system messages where they are, images as image_url parts', () => {
    const out = toOpenAIChat([
      sys('prompt'),
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'see' },
          { type: 'file', mediaType: 'image/png', url: 'https://x/y.png' },
        ],
      },
      assistant(signed),
      sys('summary'),
      assistant(unsigned, 'answer'),
    ]);
    expect(out).toEqual([
      { role: 'system', content: 'prompt' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image_url', image_url: { url: 'https://x/y.png' } },
        ],
      },
      { role: 'system', content: 'summary' },
      { role: 'assistant', content: 'answer' },
    ]);
  });

  it('does not insert a user turn before an opening assistant message (OpenAI accepts it)', () => {
    expect(toOpenAIChat([assistant('hello')])).toEqual([{ role: 'assistant', content: 'hello' }]);
  });
});

describe('AI SDK', () => {
  it('reasoning goes through with providerMetadata as providerOptions; system messages lead', () => {
    const out = toAiSdk([user('q'), sys('late'), assistant(signed, redacted, 'a')]);
    expect(out).toEqual([
      { role: 'system', content: 'late' },
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'plan: read a',
            providerOptions: { anthropic: { signature: 'EqQBCkYI+/=' } },
          },
          { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'ENCRYPTED' } } },
          { type: 'text', text: 'a' },
        ],
      },
    ]);
  });

  it('splitAiSdkSystem moves leading system messages to the `system` option', () => {
    const { system, messages } = splitAiSdkSystem(toAiSdk([sys('p1'), sys('p2'), user('q')]));
    expect(system).toBe('p1\n\np2');
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
    expect(splitAiSdkSystem(toAiSdk([user('q')])).system).toBeUndefined();
  });
});
