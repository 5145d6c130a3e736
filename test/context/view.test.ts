import { describe, expect, it } from 'vitest';
import {
  buildView,
  delimitedSummary,
  renderContext,
  SUMMARY_CLOSE,
  SUMMARY_OPEN,
  validate,
} from '../../src/context/index.js';
import type { Message } from '../../src/model/message.js';
import { assistant, log, pivot, texts, user } from './support/fixtures.js';

const marker: Message = { role: 'user', parts: [{ type: 'compaction', auto: true }] };

describe('buildView: which entries', () => {
  it('without a pivot: the system prompt, then every message in order', () => {
    const view = buildView(log([user('a'), assistant('b'), user('c')]), { system: 'SYS' });
    expect(texts(view)).toEqual(['system:SYS', 'user:a', 'assistant:b', 'user:c']);
  });

  it('with a pivot keeping a tail: summary, kept entries from firstKeptId (before the pivot), newer ones', () => {
    // e0 e1 summarized, e2 e3 kept, e4 = pivot, e5 new
    const entries = log([
      user('old'),
      assistant('old answer'),
      user('kept q'),
      assistant('kept a'),
      pivot('S', 'e1', 'e2'),
      user('new'),
    ]);
    expect(texts(buildView(entries))).toEqual([
      `user:${delimitedSummary('S')}`,
      'user:kept q',
      'assistant:kept a',
      'user:new',
    ]);
  });

  it('with firstKeptId null: only what follows the pivot entry', () => {
    const entries = log([user('old'), assistant('x'), pivot('S', 'e1', null), user('new')]);
    expect(texts(buildView(entries, { summaryAs: 'assistant' }))).toEqual(['assistant:S', 'user:new']);
  });

  it('uses the latest pivot, skips older compaction entries and the answered marker message', () => {
    const entries = log([
      user('a'),
      pivot('S1', 'e0', null),
      user('b'),
      assistant('c'),
      marker,
      pivot('S2', 'e2', 'e3', { markerId: 'e4', previousPivotId: 'e1' }),
      user('d'),
    ]);
    expect(texts(buildView(entries, { summaryAs: 'system' }))).toEqual([
      'system:S2',
      'assistant:c',
      'user:d',
    ]);
  });

  it('accepts entries out of seq order', () => {
    const entries = log([user('a'), assistant('b'), pivot('S', 'e0', 'e1'), user('c')]).reverse();
    expect(texts(buildView(entries, { summaryAs: 'system' }))).toEqual(['system:S', 'assistant:b', 'user:c']);
  });

  it('throws, naming the entry, when the first kept entry was not loaded', () => {
    const entries = log([user('a'), assistant('b'), pivot('S', 'e0', 'e1')]).slice(2);
    expect(() => buildView(entries)).toThrow(/e1/);
  });
});

describe('buildView: summary layouts', () => {
  const entries = log([user('old'), pivot('SUMMARY TEXT', 'e0', null), user('next')]);

  it("'user' (default): one delimited user message flagged summary + synthetic", () => {
    const [summary] = buildView(entries);
    expect(summary!.role).toBe('user');
    expect(summary!.metadata).toEqual({ summary: true, synthetic: true });
    const text = summary!.parts[0]!.type === 'text' ? summary!.parts[0]!.text : '';
    expect(text.startsWith(SUMMARY_OPEN)).toBe(true);
    expect(text.endsWith(SUMMARY_CLOSE)).toBe(true);
    expect(text).toContain('SUMMARY TEXT');
    expect(text).toMatch(/summarizes the earlier part/);
  });

  it("'assistant' (seed 000): an assistant message with metadata.summary", () => {
    const [summary] = buildView(entries, { summaryAs: 'assistant' });
    expect(summary).toMatchObject({
      role: 'assistant',
      parts: [{ type: 'text', text: 'SUMMARY TEXT' }],
      metadata: { summary: true },
    });
  });

  it("'question+assistant' (seed 001): the marker question, then the summary", () => {
    const view = buildView(entries, { summaryAs: 'question+assistant' });
    expect(texts(view)).toEqual(['user:What did we do so far?', 'assistant:SUMMARY TEXT', 'user:next']);
    expect(texts(buildView(entries, { summaryAs: 'question+assistant', markerQuestion: 'Q?' }))[0]).toBe(
      'user:Q?',
    );
  });

  it("'system' (seeds 002/003): a system message after the system prompt", () => {
    expect(texts(buildView(entries, { summaryAs: 'system', system: 'SYS' }))).toEqual([
      'system:SYS',
      'system:SUMMARY TEXT',
      'user:next',
    ]);
  });

  it("'system' goes into Anthropic's system slot and Gemini's systemInstruction; stays a message for OpenAI", () => {
    const opts = { summaryAs: 'system' as const, system: 'SYS' };
    const anthropic = renderContext(entries, { ...opts, format: 'anthropic' });
    expect(anthropic.system).toBe('SYS\n\nSUMMARY TEXT');
    expect(anthropic.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'next' }] }]);
    const gemini = renderContext(entries, { ...opts, format: 'gemini' });
    expect(gemini.systemInstruction).toEqual({ parts: [{ text: 'SYS' }, { text: 'SUMMARY TEXT' }] });
    const openai = renderContext(entries, { ...opts, format: 'openai' });
    expect(openai.slice(0, 2)).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'system', content: 'SUMMARY TEXT' },
    ]);
  });

  it("'assistant' layout still yields valid requests: providers wanting a user turn first get '(continuing)'", () => {
    for (const format of ['anthropic', 'gemini', 'ai-sdk', 'openai'] as const) {
      const payload = renderContext(entries, { summaryAs: 'assistant', format });
      expect(validate(payload, format)).toEqual([]);
    }
    expect(renderContext(entries, { summaryAs: 'assistant', format: 'anthropic' }).messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '(continuing)' }],
    });
    expect(renderContext(entries, { summaryAs: 'assistant', format: 'openai' })[0]).toEqual({
      role: 'assistant',
      content: 'SUMMARY TEXT',
    });
  });
});
