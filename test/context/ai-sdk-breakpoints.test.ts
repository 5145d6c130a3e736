/**
 * An AI SDK request bound for an Anthropic model carries the same breakpoints as Anthropic's own
 * request, as `providerOptions.anthropic.cacheControl` on the marked part (the SDK's Anthropic
 * provider turns it into `cache_control`): the last message, the end of the previous request;
 * at most four. Other models' requests, and `cache.breakpoints: false`, carry none.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/index.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const say = (text: string): Message => ({ role: 'assistant', parts: [{ type: 'text', text }] });

/** Where each request's cacheControl marks are: [message index, part index or -1 for the message]. */
async function marksPerTurn(options: SessionOptions) {
  const session = await openSession(memoryStore(), 's', { system: 'Be brief.', ...options });
  const out: { marks: string[]; json: string[] }[] = [];
  for (let turn = 1; turn <= 3; turn++) {
    await session.append(user(`Question ${turn}?`));
    const { messages } = await session.prepare({ format: 'ai-sdk' });
    const marks: string[] = [];
    messages.forEach((m, i) => {
      if ((m.providerOptions as { anthropic?: unknown } | undefined)?.anthropic) marks.push(`${i}`);
      if (Array.isArray(m.content))
        m.content.forEach((p, j) => {
          const o = (p as { providerOptions?: { anthropic?: { cacheControl?: unknown } } }).providerOptions;
          if (o?.anthropic?.cacheControl) marks.push(`${i}.${j}`);
        });
    });
    out.push({ marks, json: messages.map((m) => JSON.stringify(m)) });
    await session.recordStep({ message: say(`Answer ${turn}.`) });
  }
  return out;
}

describe('AI SDK requests to an Anthropic model', () => {
  it('mark the last message and the end of the previous request', async () => {
    const turns = await marksPerTurn({ model: 'claude-sonnet-4-5' });
    expect(turns.map((t) => t.marks)).toEqual([['0.0'], ['0.0', '2.0'], ['2.0', '4.0']]);
    const [first] = turns;
    const cc = JSON.parse(first!.json[0]!).content[0].providerOptions.anthropic.cacheControl;
    expect(cc).toEqual({ type: 'ephemeral' });
  });

  it('ask for 1-hour entries with a longer lifetime', async () => {
    const turns = await marksPerTurn({ model: 'claude-sonnet-4-5', cache: { ttlMinutes: 60 } });
    const cc = JSON.parse(turns[0]!.json[0]!).content[0].providerOptions.anthropic.cacheControl;
    expect(cc).toEqual({ type: 'ephemeral', ttl: '1h' });
  });

  it('carry none for another provider, or with breakpoints off', async () => {
    for (const options of [
      { model: 'gpt-4o' },
      { model: 'claude-sonnet-4-5', cache: { breakpoints: false } },
    ]) {
      const turns = await marksPerTurn(options);
      expect(turns.flatMap((t) => t.marks)).toEqual([]);
    }
  });
});
