import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { fromAiSdkResponse } from '../../src/ai-sdk.js';
import { ingest } from '../../src/integrations/ai-sdk/ingest.js';
import { stepHooks } from '../../src/integrations/ai-sdk/step-hooks.js';
import { InputError } from '../../src/model/errors.js';
import { openSession, type Session } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

const call = (id: string, extra: object = {}) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'web_search',
  input: { q: id },
  ...extra,
});
const textResult = (id: string, value: string) => ({
  type: 'tool-result' as const,
  toolCallId: id,
  toolName: 'web_search',
  output: { type: 'text' as const, value },
});

async function parts(session: Session): Promise<unknown[]> {
  return (await session.history()).flatMap((e): unknown[] => (e.kind === 'message' ? e.message.parts : []));
}

describe('AI SDK messages: what every path keeps', () => {
  it("recordStep keeps a tool call's providerOptions (Gemini's thought signature) and sends them back", async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append({ role: 'user', content: 'search' });
    const signed = { google: { thoughtSignature: 'c2ln' } };
    await session.recordStep({
      response: {
        messages: [
          { role: 'assistant', content: [call('c1', { providerOptions: signed })] },
          { role: 'tool', content: [textResult('c1', 'found')] },
        ],
      },
    });
    const { messages } = await session.prepare();
    const sent = messages.flatMap((m) =>
      m.role === 'assistant' && Array.isArray(m.content) ? m.content : [],
    );
    expect(sent).toEqual([expect.objectContaining({ type: 'tool-call', providerOptions: signed })]);
  });

  it('keeps a file the model returned in a response', () => {
    const messages = fromAiSdkResponse([
      {
        role: 'assistant',
        content: [
          { type: 'file', data: 'aW1n', mediaType: 'image/png' },
          { type: 'text', text: 'Here it is.' },
        ],
      },
    ]);
    expect(messages[0]!.parts).toEqual([
      { type: 'file', mediaType: 'image/png', data: 'aW1n' },
      { type: 'text', text: 'Here it is.' },
    ]);
  });

  it('answers calls that share an id in the order they were made', () => {
    const [message] = fromAiSdkResponse([
      { role: 'assistant', content: [call('c'), call('c')] },
      { role: 'tool', content: [textResult('c', 'first'), textResult('c', 'second')] },
    ]);
    expect(message!.parts.map((p) => p.type === 'tool' && p.state === 'completed' && p.output)).toEqual([
      'first',
      'second',
    ]);
  });

  it('a tool output with media is stored the same whether its call came in the same append or an earlier one', async () => {
    const screenshot: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'web_search',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'the page' },
              { type: 'image-data', data: 'aW1n', mediaType: 'image/png' },
            ],
          },
        },
      ],
    };
    const asking: ModelMessage[] = [
      { role: 'user', content: 'look' },
      { role: 'assistant', content: [call('c1')] },
    ];
    const together = await openSession(memoryStore(), 'a');
    await together.append([...asking, screenshot]);
    const apart = await openSession(memoryStore(), 'b');
    await apart.append(asking);
    await apart.append(screenshot);
    const expected = {
      state: 'completed',
      output: 'the page',
      attachments: [{ type: 'file', mediaType: 'image/png', data: 'aW1n' }],
    };
    expect((await parts(together))[1]).toMatchObject(expected);
    expect((await parts(apart))[1]).toMatchObject(expected);
  });
});

describe('a provider result that comes after a later message (deferred provider-executed tools)', () => {
  const executed = call('ws', { providerExecuted: true });
  const found = (id: string) => ({
    type: 'tool-result' as const,
    toolCallId: id,
    toolName: 'web_search',
    output: { type: 'json' as const, value: [{ url: 'https://e.com' }] },
  });
  const deferred = {
    role: 'assistant' as const,
    content: [found('ws'), { type: 'text' as const, text: 'Found it.' }],
  };
  const completed = { type: 'tool', callId: 'ws', state: 'completed', output: [{ url: 'https://e.com' }] };

  it('append completes the call in the earlier assistant message', async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append([
      { role: 'user', content: 'search' },
      { role: 'assistant', content: [executed] },
      deferred,
    ]);
    expect(await parts(session)).toMatchObject([{}, completed, { type: 'text', text: 'Found it.' }]);
  });

  it('recordStep of the later step completes the call an earlier step recorded (step hooks record each step)', async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append({ role: 'user', content: 'search' });
    await session.recordStep({ response: { messages: [{ role: 'assistant', content: [executed] }] } });
    await session.recordStep({ response: { messages: [deferred] } });
    expect(await parts(session)).toMatchObject([{}, completed, { type: 'text', text: 'Found it.' }]);
    // A result for no call the session waits for is refused before anything is written.
    const before = (await session.history()).length;
    const stray: ModelMessage = { role: 'assistant', content: [found('zz')] };
    await expect(session.recordStep({ response: { messages: [stray] } })).rejects.toThrow(/zz/);
    expect((await session.history()).length).toBe(before);
  });

  it('the middleware’s ingest completes the call from a later assistant message of the prompt', async () => {
    const session = await openSession(memoryStore(), 's');
    const user: LanguageModelV3Message = { role: 'user', content: [{ type: 'text', text: 'search' }] };
    const first: LanguageModelV3Message = { role: 'assistant', content: [executed] };
    await ingest(session, [user, first]);
    await ingest(session, [user, first, deferred]);
    expect(await parts(session)).toMatchObject([{}, completed, { type: 'text', text: 'Found it.' }]);
  });
});

describe('recording: nothing dropped silently', () => {
  it('refuses a step given both condense messages and an AI SDK response', async () => {
    const session = await openSession(memoryStore(), 's');
    const both = {
      message: { role: 'assistant' as const, parts: [{ type: 'text' as const, text: 'kept?' }] },
      response: { messages: [{ role: 'assistant' as const, content: 'or this?' }] },
    };
    // @ts-expect-error: the two ways of giving a step's messages exclude each other.
    const recording = session.recordStep(both);
    await expect(recording).rejects.toThrow(InputError);
    expect(await session.history()).toEqual([]);
  });

  it('refuses a tool result with both an output and an error', async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append([
      { role: 'user', content: 'search' },
      { role: 'assistant', content: [call('c1')] },
    ]);
    // @ts-expect-error: a result is an output or an error, never both.
    await expect(session.recordToolResult('c1', { output: 'found', error: 'failed' })).rejects.toThrow(
      InputError,
    );
    expect(await parts(session)).toMatchObject([{}, { callId: 'c1', state: 'pending' }]);
  });

  it('a step that could not be recorded is reported at once, and thrown by the next step', async () => {
    const session = await openSession(memoryStore(), 's');
    const warnings: unknown[] = [];
    session.on('warning', (w) => warnings.push(w.error));
    const hooks = stepHooks(session);
    // A user message is no response: the step cannot be recorded.
    await hooks.onStepFinish({ response: { messages: [{ role: 'user', content: 'x' }] }, usage: {} });
    expect(warnings).toEqual([expect.any(InputError)]);
    await expect(hooks.prepareStep({ stepNumber: 1 })).rejects.toBe(warnings[0]);
  });
});
