import type { LanguageModelV3Content, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAiSdkSystem, toAiSdk } from '../../src/context/index.js';
import { ingest } from '../../src/integrations/ai-sdk/ingest.js';
import { assistantFromV3, toolResultOf, userFromV3 } from '../../src/integrations/ai-sdk/prompt-in.js';
import { toV3Prompt, viewPrompt } from '../../src/integrations/ai-sdk/prompt-out.js';
import { responseMessage } from '../../src/integrations/ai-sdk/response.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { historyArb } from '../support/arbitraries.js';

/** JSON as a provider would see it: URLs as their href, bytes as numbers. */
const json = (prompt: LanguageModelV3Prompt) => JSON.parse(JSON.stringify(prompt)) as unknown;

describe('V3 prompt → condense messages', () => {
  it('keeps user text and files: bytes as base64, URLs by reference', () => {
    const message = userFromV3({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'file', data: new Uint8Array([104, 105]), mediaType: 'image/png', filename: 'a.png' },
        { type: 'file', data: new URL('https://example.com/doc.pdf'), mediaType: 'application/pdf' },
        { type: 'file', data: 'aGk=', mediaType: 'text/plain' },
      ],
    });
    expect(message.parts).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', mediaType: 'image/png', data: 'aGk=', filename: 'a.png' },
      { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/doc.pdf' },
      { type: 'file', mediaType: 'text/plain', data: 'aGk=' },
    ]);
  });

  it('makes tool calls pending parts, keeps reasoning metadata, completes provider-executed calls in place', () => {
    const message = assistantFromV3({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'think', providerOptions: { anthropic: { signature: 'sig' } } },
        { type: 'text', text: 'Reading.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.ts' } },
        {
          type: 'tool-call',
          toolCallId: 'ws',
          toolName: 'web_search',
          input: { q: 'x' },
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'ws',
          toolName: 'web_search',
          output: { type: 'json', value: [1] },
        },
      ],
    });
    expect(message.parts).toEqual([
      { type: 'reasoning', text: 'think', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'text', text: 'Reading.' },
      { type: 'tool', callId: 'c1', name: 'read_file', input: { path: 'a.ts' }, state: 'pending' },
      { type: 'tool', callId: 'ws', name: 'web_search', input: { q: 'x' }, state: 'completed', output: [1] },
    ]);
  });

  it('turns every tool output type into a result or an error', () => {
    const result = (output: Parameters<typeof toolResultOf>[0]['output']) =>
      toolResultOf({ type: 'tool-result', toolCallId: 'c', toolName: 't', output });
    expect(result({ type: 'text', value: 'ok' })).toEqual({ output: 'ok' });
    expect(result({ type: 'json', value: { a: 1 } })).toEqual({ output: { a: 1 } });
    expect(result({ type: 'error-text', value: 'boom' })).toEqual({ error: 'boom' });
    expect(result({ type: 'error-json', value: { code: 2 } })).toEqual({ error: '{"code":2}' });
    expect(result({ type: 'execution-denied', reason: 'no' })).toEqual({ error: 'execution denied: no' });
  });
});

describe('model response → condense message', () => {
  it('parses tool-call input, keeps invalid input as text, sources and finish reason in metadata', () => {
    const content: LanguageModelV3Content[] = [
      { type: 'reasoning', text: 'r', providerMetadata: { openai: { itemId: 'rs_1' } } },
      { type: 'text', text: '' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'read_file', input: '{"path":"x"}' },
      { type: 'tool-call', toolCallId: 'b', toolName: 'bash', input: '{not json' },
      { type: 'source', sourceType: 'url', id: 's', url: 'https://e.com', title: 'E' },
    ];
    expect(responseMessage(content, { unified: 'tool-calls', raw: 'tool_use' })).toEqual({
      role: 'assistant',
      parts: [
        { type: 'reasoning', text: 'r', providerMetadata: { openai: { itemId: 'rs_1' } } },
        { type: 'text', text: 'Calling.' },
        { type: 'tool', callId: 'a', name: 'read_file', input: { path: 'x' }, state: 'pending' },
        { type: 'tool', callId: 'b', name: 'bash', input: '{not json', state: 'pending' },
      ],
      metadata: { sources: [{ url: 'https://e.com', title: 'E' }], finish: 'tool-calls' },
    });
  });

  it('is null when nothing would reach the next prompt', () => {
    expect(responseMessage([{ type: 'text', text: '' }])).toBeNull();
  });
});

describe('condense view → V3 prompt', () => {
  it('puts the system prompt first, tool input as an object, results as typed outputs, URLs as URL', () => {
    const view = toAiSdk([
      { role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: 'https://e.com/a.png' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'hm', providerMetadata: { anthropic: { signature: 's' } } },
          {
            type: 'tool',
            callId: 'c1',
            name: 'read_file',
            input: { path: 'a' },
            state: 'completed',
            output: 'A',
          },
          {
            type: 'tool',
            callId: 'c2',
            name: 'bash',
            input: '{"cmd":"ls"}',
            state: 'error',
            error: 'exit 1',
          },
        ],
      },
    ]);
    const prompt = toV3Prompt('Be brief.', view);
    expect(prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const file = prompt[1]!.role === 'user' ? prompt[1]!.content[0] : undefined;
    expect(file?.type === 'file' && file.data instanceof URL && file.data.href).toBe('https://e.com/a.png');
    expect(prompt[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'hm', providerOptions: { anthropic: { signature: 's' } } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'bash', input: { cmd: 'ls' } },
      ],
    });
    expect(prompt[3]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'read_file',
          output: { type: 'text', value: 'A' },
        },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'bash',
          output: { type: 'error-text', value: 'exit 1' },
        },
      ],
    });
  });

  it('extends the prompt it handed out as the view grows, and converts anew one a model cut or added to', () => {
    const say = (role: 'user' | 'assistant', text: string): ModelMessage => ({ role, content: text });
    const view: ModelMessage[] = [say('user', 'one'), say('assistant', 'two')];
    const first = viewPrompt('Be brief.', view);
    expect(first).toEqual(toV3Prompt('Be brief.', view));
    const kept = first[1];
    // The view grows, its last message is replaced (a merged turn), the system prompt changes.
    view[1] = say('assistant', 'two, merged');
    view.push(say('user', 'three'));
    const second = viewPrompt('Be briefer.', view);
    expect(second).toBe(first);
    expect(second[1]).toBe(kept);
    expect(second).toEqual(toV3Prompt('Be briefer.', view));
    // Without a system prompt, and back: each time what a whole conversion gives.
    expect(viewPrompt(undefined, view)).toEqual(toV3Prompt(undefined, view));
    expect(viewPrompt('Be brief.', view)).toEqual(toV3Prompt('Be brief.', view));
    // A model that took a message out of its prompt, or put one in: the next one is converted anew.
    viewPrompt('Be brief.', view).splice(1, 1);
    expect(viewPrompt('Be brief.', view)).toEqual(toV3Prompt('Be brief.', view));
    viewPrompt('Be brief.', view).splice(1, 0, {
      role: 'user',
      content: [{ type: 'text', text: 'injected' }],
    });
    view.push(say('assistant', 'four'));
    expect(viewPrompt('Be brief.', view)).toEqual(toV3Prompt('Be brief.', view));
  });

  it('a prompt the session produced, taken in by a fresh session, comes back the same (property)', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb({ maxLength: 10 }), async (history) => {
        // As prepare() hands it out: the system messages joined into one, first.
        const { system, messages } = splitAiSdkSystem(toAiSdk(history));
        const prompt = toV3Prompt(system, messages);
        const session = await openSession(memoryStore(), 's', { prune: false, limits: { contextWindow: 0 } });
        const taken = await ingest(session, prompt);
        expect(taken.status).toBe('ingested');
        const prepared = await session.prepare({ format: 'ai-sdk', system });
        expect(json(toV3Prompt(prepared.system, prepared.messages))).toEqual(json(prompt));
      }),
      { numRuns: 150 },
    );
  });
});
