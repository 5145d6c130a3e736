import { describe, expect, it } from 'vitest';
import { buildMessageEntry } from '../../src/model/build.js';
import type { Message } from '../../src/model/message.js';
import { makeEstimator } from '../../src/tokens/estimator.js';
import { exactEstimator } from '../../src/tokens/exact.js';

const message: Message = {
  role: 'assistant',
  parts: [
    { type: 'text', text: 'Reading the config next.' },
    { type: 'reasoning', text: 'The failure names config.ts line 12.' },
    {
      type: 'tool',
      callId: 'c1',
      name: 'read_file',
      input: { path: 'src/config.ts' },
      state: 'completed',
      output: 'export const retries = 3;\n'.repeat(40),
    },
  ],
};

describe('appending an entry tokenizes each character once', () => {
  it('the part figures are reused for the message total', () => {
    const counted: string[] = [];
    const estimator = makeEstimator('counting', (text) => {
      counted.push(text);
      return Math.ceil(text.length / 4);
    });
    const entry = buildMessageEntry(message, { sessionId: 's', seq: 0, parentId: null }, estimator);
    const chars = counted.reduce((n, t) => n + t.length, 0);
    // Every text, reasoning and output once, plus the call's name and input: nothing twice.
    const expected =
      'Reading the config next.'.length +
      'The failure names config.ts line 12.'.length +
      'export const retries = 3;\n'.length * 40 +
      'read_file'.length +
      JSON.stringify({ path: 'src/config.ts' }).length;
    expect(chars).toBe(expected);
    // …and the figures are the ones a recount from scratch gives.
    expect(entry.tokens).toBe(estimator.message(message));
    expect(entry.partTokens).toEqual(message.parts.map((p) => estimator.part(p)));
  });

  it('the exact estimator gives the same total with or without the part figures', () => {
    const estimator = exactEstimator();
    const partTokens = message.parts.map((p) => estimator.part(p));
    expect(estimator.message(message, partTokens)).toBe(estimator.message(message));
  });
});
