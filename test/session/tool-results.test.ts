import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { InputError } from '../../src/model/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { user } from './helpers.js';

describe('agents that run tools themselves', () => {
  it('a call appended while pending gets its result in the same part; the context is valid at every point', async () => {
    const session = await openSession(memoryStore(), 's', { prune: false });
    await session.append(user('list the files'));
    await session.recordStep({
      message: {
        role: 'assistant',
        parts: [
          { type: 'tool', callId: 'a', name: 'ls', input: { path: '.' }, state: 'pending' },
          { type: 'tool', callId: 'b', name: 'cat', input: { path: 'x' }, state: 'running' },
        ],
      },
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    });
    // Before the results arrive, the interrupted calls still serialize validly (synthetic errors).
    for (const format of ['openai', 'anthropic', 'gemini', 'ai-sdk'] as const) {
      expect(validate((await session.prepare({ format })).messages, format)).toEqual([]);
    }
    const before = session.record.state.activeTokens;
    await session.recordToolResult('a', { output: 'README.md\nsrc\n'.repeat(100) });
    await session.recordToolResult('b', { error: 'ENOENT: no such file' });
    expect(session.record.state.activeTokens).toBeGreaterThan(before);
    const [entry] = (await session.history()).filter(
      (e) => e.kind === 'message' && e.message.role === 'assistant',
    );
    expect(entry?.kind === 'message' && entry.message.parts.map((p) => p.type === 'tool' && p.state)).toEqual(
      ['completed', 'error'],
    );
    const { messages } = await session.prepare({ format: 'openai' });
    expect(JSON.stringify(messages)).toContain('ENOENT: no such file');
    await expect(session.recordToolResult('a', { output: 'again' })).rejects.toBeInstanceOf(InputError);
  });
});
