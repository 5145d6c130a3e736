import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_ERROR, repair } from '../../src/context/index.js';
import type { Message } from '../../src/model/message.js';
import type { ReasoningPart, ToolPart } from '../../src/model/parts.js';
import { historyArb } from '../support/arbitraries.js';
import { assistant, tool, user } from './support/fixtures.js';

describe('repair', () => {
  it('gives pending and running calls an error result saying they were interrupted', () => {
    const pending: ToolPart = {
      type: 'tool',
      callId: 'p',
      name: 'bash',
      input: { cmd: 'sleep' },
      state: 'pending',
      startedAt: 3,
    };
    const running: ToolPart = { ...pending, callId: 'r', state: 'running' };
    const done = tool('d', 'ok');
    const [, fixed] = repair([user('go'), assistant(pending, running, done)]);
    expect(fixed!.parts).toEqual([
      {
        type: 'tool',
        callId: 'p',
        name: 'bash',
        input: { cmd: 'sleep' },
        startedAt: 3,
        state: 'error',
        error: INTERRUPTED_TOOL_ERROR,
      },
      {
        type: 'tool',
        callId: 'r',
        name: 'bash',
        input: { cmd: 'sleep' },
        startedAt: 3,
        state: 'error',
        error: INTERRUPTED_TOOL_ERROR,
      },
      done,
    ]);
    expect(INTERRUPTED_TOOL_ERROR).toMatch(/interrupted/);
  });

  it('drops blank text parts, compaction markers, empty reasoning without metadata, then empty messages', () => {
    const bare: ReasoningPart = { type: 'reasoning', text: '' };
    const redacted: ReasoningPart = {
      type: 'reasoning',
      text: '',
      providerMetadata: { anthropic: { redactedData: 'x' } },
    };
    const messages: Message[] = [
      { role: 'system', parts: [{ type: 'text', text: ' ' }] },
      {
        role: 'user',
        parts: [
          { type: 'text', text: '' },
          { type: 'compaction', auto: true },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'text', text: '\n' },
          { type: 'text', text: 'keep' },
        ],
      },
      assistant(bare),
      assistant(bare, redacted),
    ];
    expect(repair(messages)).toEqual([user('keep'), assistant(redacted)]);
  });

  it('returns untouched messages and reasoning parts as the same objects', () => {
    const reasoning: ReasoningPart = {
      type: 'reasoning',
      text: 't',
      providerMetadata: { anthropic: { signature: 's' } },
    };
    const a = assistant(reasoning, 'text');
    const b = assistant(reasoning, { type: 'tool', callId: 'x', name: 'n', input: {}, state: 'running' });
    const [ra, rb] = repair([a, b]);
    expect(ra).toBe(a);
    expect(rb!.parts[0]).toBe(reasoning);
  });

  it('is idempotent and leaves no unfinished call, blank text or empty message', () => {
    fc.assert(
      fc.property(historyArb(), (history) => {
        const once = repair(history);
        expect(repair(once)).toEqual(once);
        for (const m of once) {
          expect(m.parts.length).toBeGreaterThan(0);
          for (const p of m.parts) {
            if (p.type === 'tool') expect(['completed', 'error']).toContain(p.state);
            if (p.type === 'text') expect(p.text.trim()).not.toBe('');
            expect(p.type).not.toBe('compaction');
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
