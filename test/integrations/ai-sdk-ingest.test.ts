import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { generateText, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { ingest } from '../../src/integrations/ai-sdk/ingest.js';
import { InputError } from '../../src/model/errors.js';
import { openSession, type Session } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { messageEntries, promptText, textReply, wrapped } from './support.js';

const user = (text: string): LanguageModelV3Message => ({ role: 'user', content: [{ type: 'text', text }] });
const calls: LanguageModelV3Message = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Reading both.' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } },
    { type: 'tool-call', toolCallId: 'c2', toolName: 'read_file', input: { path: 'b' } },
  ],
};
const result = (id: string, value: string): LanguageModelV3Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value } }],
});

async function fresh(): Promise<{ session: Session; warnings: string[] }> {
  const session = await openSession(memoryStore(), 's');
  const warnings: string[] = [];
  session.on('warning', (w) => warnings.push(w.message));
  return { session, warnings };
}

async function stored(session: Session) {
  return (await session.history()).map((e) => (e.kind === 'message' ? e.message : null));
}

describe('ingest', () => {
  it('takes the same messages in once, however often they come', async () => {
    const { session } = await fresh();
    const prompt: LanguageModelV3Prompt = [{ role: 'system', content: 'Be brief.' }, user('hello')];
    expect(await ingest(session, prompt)).toMatchObject({ status: 'ingested', system: 'Be brief.' });
    await ingest(session, prompt);
    await ingest(session, [...prompt]);
    expect(await stored(session)).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'hello' }] }]);
  });

  it('ignores providerOptions an app moves between messages (a cache breakpoint)', async () => {
    const { session } = await fresh();
    await ingest(session, [user('one')]);
    const marked: LanguageModelV3Message = {
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'one',
          providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        },
      ],
    };
    expect((await ingest(session, [marked, user('two')])).status).toBe('ingested');
    expect((await stored(session)).length).toBe(2);
  });

  it('completes pending calls with their results, skips results already taken, keeps results of no call', async () => {
    const { session, warnings } = await fresh();
    const prompt = [user('go'), calls, result('c1', 'A'), result('c2', 'B')];
    await ingest(session, prompt);
    await ingest(session, prompt);
    const [, assistant] = await stored(session);
    expect(
      assistant?.parts.map((p) =>
        p.type === 'tool' ? [p.callId, p.state, 'output' in p && p.output] : p.type,
      ),
    ).toEqual(['text', ['c1', 'completed', 'A'], ['c2', 'completed', 'B']]);
    await ingest(session, [...prompt, result('zz', 'stray'), user('next')]);
    expect(warnings).toEqual([
      "1 tool result(s) answer no call in the session's view; kept as user messages marked orphanResult",
    ]);
    // Kept where it came, as the import keeps one: a user message marked orphanResult.
    const [, , orphan, next] = await stored(session);
    expect(orphan).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: '[result of tool call zz, which no call in the session made]\nstray' }],
      metadata: { orphanResult: { callId: 'zz' } },
    });
    expect(next).toEqual({ role: 'user', parts: [{ type: 'text', text: 'next' }] });
    // Taken once: the same prompt again adds nothing.
    await ingest(session, [...prompt, result('zz', 'stray'), user('next')]);
    expect((await stored(session)).length).toBe(4);
  });

  it('through the middleware, the model sees a result of no call, and every format validates', async () => {
    const store = memoryStore();
    const model = new MockLanguageModelV3({ doGenerate: textReply('noted') });
    const { model: wrappedModel, sessions } = wrapped(model, store);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'lost',
            toolName: 'read_file',
            output: { type: 'text', value: 'the data' },
          },
        ],
      },
      { role: 'user', content: 'what did it say?' },
    ];
    await generateText({ model: wrappedModel, messages });
    expect(promptText(model.doGenerateCalls[0]!.prompt)).toContain('the data');
    const entries = await messageEntries(store, 'chat');
    expect(entries.map((e) => e.message.metadata?.orphanResult ?? null)).toEqual([
      null,
      { callId: 'lost' },
      null,
      null,
    ]);
    for (const format of ['openai', 'anthropic', 'gemini', 'ai-sdk'] as const) {
      const prepared = await sessions[0]!.prepare({ format });
      expect(validate(prepared.messages, format)).toEqual([]);
    }
  });

  it('reports a rewrite (an earlier message changed or gone) without writing anything', async () => {
    const { session } = await fresh();
    await ingest(session, [user('one'), user('two')]);
    const before = session.record.version;
    expect(await ingest(session, [user('ONE'), user('two'), user('three')])).toMatchObject({
      status: 'rewritten',
    });
    expect(await ingest(session, [user('one')])).toMatchObject({ status: 'rewritten' });
    expect(session.record.version).toBe(before);
  });

  it('takes a call and its result from the same prompt in one write, the call completed', async () => {
    const { session } = await fresh();
    const before = session.record.version;
    await ingest(session, [
      user('read a and b'),
      calls,
      result('c1', 'A'),
      result('c2', 'B'),
      user('thanks'),
    ]);
    expect(session.record.version).toBe(before + 1);
    const tools = (await stored(session)).flatMap((m) => m?.parts.filter((p) => p.type === 'tool') ?? []);
    expect(tools.map((p) => [p.callId, p.state, p.state === 'completed' ? p.output : null])).toEqual([
      ['c1', 'completed', 'A'],
      ['c2', 'completed', 'B'],
    ]);
  });

  it('sees an edit of the first message taken, of the last, or of those 1, 2, 4, 8 ... before the last', async () => {
    const history = Array.from({ length: 40 }, (_, i) => user(`message ${i}`));
    // 41 messages taken: positions 40 (the last), 39, 37, 33, 25, 9 and 0 are checked each call.
    for (const edited of [0, 39, 37, 33, 25, 9]) {
      const { session } = await fresh();
      await ingest(session, history);
      await ingest(session, [...history, user('next')]);
      const changed = history.map((m, i) => (i === edited ? user(`EDITED ${i}`) : m));
      expect(await ingest(session, [...changed, user('next'), user('more')])).toMatchObject({
        status: 'rewritten',
      });
    }
  });

  it('hashes a prompt in full when another process took its messages: a restart continues the cursor', async () => {
    const store = memoryStore();
    const history = Array.from({ length: 12 }, (_, i) => user(`message ${i}`));
    const first = await openSession(store, 's');
    await ingest(first, history);
    const second = await openSession(store, 's');
    expect(await ingest(second, [...history, user('more')])).toMatchObject({ status: 'ingested' });
    // The first process has not seen 'more': it catches up with the cursor the second one wrote.
    expect(await ingest(first, [...history, user('more'), user('again')])).toMatchObject({
      status: 'ingested',
    });
    expect(
      (await stored(first)).map((m) => (m?.parts[0] as { text: string } | undefined)?.text).slice(-3),
    ).toEqual(['message 11', 'more', 'again']);
  });

  it('names the field of a malformed cursor', async () => {
    const { session } = await fresh();
    await session.append([], { cursor: { messages: -1, hash: 'x' } });
    const error = await ingest(session, [user('x')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe('state.cursor.messages');
  });
});
