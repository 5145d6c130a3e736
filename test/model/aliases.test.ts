/**
 * Tool parts in the AI SDK UI and opencode vocabularies are mapped to condense's one shape before
 * validation; what cannot be mapped is still rejected with the field named.
 */
import { describe, expect, it } from 'vitest';
import { InputError, parseMessage } from '../../src/model/index.js';

const assistant = (part: unknown) => ({ role: 'assistant', parts: [part] });
const only = (part: unknown) => parseMessage(assistant(part)).parts[0];

describe('tool states of the AI SDK and opencode vocabularies', () => {
  it.each([
    ['input-streaming', { state: 'pending' }],
    ['approval-requested', { state: 'pending' }],
    ['input-available', { state: 'running' }],
    ['output-available', { state: 'completed', output: { rows: 3 } }],
    ['output-error', { state: 'error', error: 'timeout' }],
  ])('AI SDK UI part in state %s', (state, expected) => {
    const part = {
      type: 'tool-query',
      toolCallId: 'c1',
      state,
      input: { sql: 'select 1' },
      output: { rows: 3 },
      errorText: 'timeout',
    };
    expect(only(part)).toEqual({
      type: 'tool',
      callId: 'c1',
      name: 'query',
      input: { sql: 'select 1' },
      aiSdkKind: 'static',
      ...expected,
    });
  });

  it('a denied call is an error saying so, with the reason', () => {
    const part = {
      type: 'dynamic-tool',
      toolName: 'rm',
      toolCallId: 'c2',
      state: 'output-denied',
      input: {},
      approval: { id: 'a', approved: false, reason: 'not in this repo' },
    };
    expect(only(part)).toMatchObject({
      name: 'rm',
      aiSdkKind: 'dynamic',
      state: 'error',
      error: 'execution denied: not in this repo',
    });
  });

  it('condense parts with an AI SDK state, and opencode parts with their state object', () => {
    expect(
      only({ type: 'tool', callId: 'c3', name: 'ls', state: 'output-available', input: {}, output: 'a b' }),
    ).toEqual({ type: 'tool', callId: 'c3', name: 'ls', input: {}, state: 'completed', output: 'a b' });
    const opencode = {
      type: 'tool',
      callID: 'c4',
      tool: 'read',
      state: {
        status: 'completed',
        input: { path: 'a.ts' },
        output: 'A',
        time: { start: 1, end: 2, compacted: 3 },
      },
    };
    expect(only(opencode)).toEqual({
      type: 'tool',
      callId: 'c4',
      name: 'read',
      input: { path: 'a.ts' },
      state: 'completed',
      output: 'A',
      startedAt: 1,
      endedAt: 2,
      compactedAt: 3,
    });
  });

  it('an unknown state is still refused, naming the field', () => {
    const bad = () =>
      parseMessage(assistant({ type: 'tool-query', toolCallId: 'c5', state: 'exploded', input: {} }));
    expect(bad).toThrow(InputError);
    expect(bad).toThrow(/parts\[0\]/);
  });

  it("a compaction task under its earlier name ('compaction-marker') reads as 'compaction'", () => {
    const task = parseMessage({
      role: 'user',
      parts: [{ type: 'compaction-marker', auto: false, instructions: 'x' }],
    });
    expect(task.parts).toEqual([{ type: 'compaction', auto: false, instructions: 'x' }]);
  });
});
