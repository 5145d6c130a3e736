import { describe, expect, it } from 'vitest';
import { buildView, DEFAULT_PRUNED_PLACEHOLDER, renderContext } from '../../src/context/index.js';
import type { ReasoningPart, ToolPart } from '../../src/model/parts.js';
import { assistant, log, texts, tool, user } from './support/fixtures.js';

describe('buildView: pruned tool parts (seed 001 §5.2)', () => {
  const image = { type: 'file' as const, mediaType: 'image/png', data: 'aW1n' };
  const pruned = tool('c1', 'HUGE OUTPUT', { compactedAt: 5, attachments: [image] } as Partial<ToolPart>);
  const prunedError: ToolPart = {
    type: 'tool',
    callId: 'c2',
    name: 'bash',
    input: {},
    state: 'error',
    error: 'LONG TRACE',
    compactedAt: 5,
  };
  const kept = tool('c3', 'fresh output', { attachments: [image] } as Partial<ToolPart>);
  const entries = log([user('go'), assistant(pruned, prunedError, kept)]);

  it('replaces output (or error) with the placeholder and drops attachments; unpruned parts are untouched', () => {
    const parts = buildView(entries)[1]!.parts as ToolPart[];
    expect(parts[0]).toMatchObject({
      state: 'completed',
      output: DEFAULT_PRUNED_PLACEHOLDER,
      callId: 'c1',
      input: { path: 'c1' },
    });
    expect(parts[0]).not.toHaveProperty('attachments');
    expect(parts[1]).toMatchObject({ state: 'error', error: DEFAULT_PRUNED_PLACEHOLDER });
    expect(parts[2]).toBe(kept);
  });

  it('a custom placeholder is used, and no format sends the pruned content', () => {
    for (const format of ['ai-sdk', 'openai', 'anthropic', 'gemini'] as const) {
      const json = JSON.stringify(renderContext(entries, { format, prunedPlaceholder: '[gone]' }));
      expect(json).not.toContain('HUGE OUTPUT');
      expect(json).not.toContain('LONG TRACE');
      expect(json).toContain('[gone]');
      expect(json).toContain('fresh output');
    }
  });
});

describe('buildView: failed steps, markers, reasoning', () => {
  it('drops an assistant step that ended in error with no finished call (A001-15)', () => {
    const failed = { ...assistant('half an ans'), metadata: { error: 'overloaded' } };
    const failedSummary = { ...assistant('half a summary'), metadata: { error: 'x', summary: true } };
    const withCall = { ...assistant('partial', tool('c1', 'ran')), metadata: { error: 'aborted' } };
    const view = buildView(log([user('q'), failed, failedSummary, withCall]));
    expect(texts(view)).toEqual(['user:q', 'assistant:partial|tool']);
  });

  it('drops pending markers by default, shows them as the question when asked', () => {
    const entries = log([
      user('q'),
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'also' },
          { type: 'compaction', auto: false },
        ],
      },
    ]);
    expect(texts(buildView(entries))).toEqual(['user:q', 'user:also']);
    expect(texts(buildView(entries, { dropPendingMarkers: false }))).toEqual([
      'user:q',
      'user:also|What did we do so far?',
    ]);
  });

  it('passes reasoning parts through as the same objects', () => {
    const reasoning: ReasoningPart = {
      type: 'reasoning',
      text: 'think',
      providerMetadata: { anthropic: { signature: 'sig' } },
    };
    const pruned = tool('c1', 'x', { compactedAt: 1 } as Partial<ToolPart>);
    const view = buildView(log([user('q'), assistant(reasoning, pruned)]));
    expect(view[1]!.parts[0]).toBe(reasoning);
  });
});
