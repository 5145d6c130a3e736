import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import type { AssistantMessage, Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

const call = (callId: string, output = 'ok'): ToolPart => ({
  type: 'tool',
  callId,
  name: 'read',
  input: { path: callId },
  state: 'completed',
  output,
});
const step = (...parts: ToolPart[]): AssistantMessage => ({ role: 'assistant', parts });
const user: Message = { role: 'user', parts: [{ type: 'text', text: 'go' }] };

/** The rule: call ids are unique within one assistant message, and may repeat across messages. */
describe('tool call ids at append', () => {
  it('two calls with one id in one message: rejected whole, naming the field and the id', async () => {
    const session = await openSession(memoryStore(), 's');
    const append = session.append([user, step(call('c1'), call('c2'), call('c1', 'again'))]);
    await expect(append).rejects.toThrow(InputError);
    await expect(append).rejects.toThrow(
      'field [1].parts[2].callId: tool call id "c1" is already used by parts[0] of this message',
    );
    expect(session.activeEntries()).toEqual([]);
  });

  it('a recorded step with a repeated id is rejected the same way', async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append(user);
    const record = session.recordStep({ message: step(call('x'), call('x')) });
    await expect(record).rejects.toThrow('parts[1].callId: tool call id "x"');
    expect(session.activeEntries()).toHaveLength(1);
  });

  it('the same id in later messages is accepted (tau-bench runs reuse ids)', async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append([user, step(call('c1')), user, step(call('c1'), call('c2'))]);
    expect(session.activeEntries()).toHaveLength(4);
  });
});
