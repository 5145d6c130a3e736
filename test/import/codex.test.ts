import { describe, expect, it } from 'vitest';
import { parseCodex, parseTranscript } from '../../src/import/index.js';
import type { ToolPart } from '../../src/model/parts.js';
import { inputErrorOf } from './data.js';

const T = '2026-05-11T08:27:17.490Z';
const line = (type: string, payload: object) => JSON.stringify({ timestamp: T, type, payload });
const item = (payload: object) => line('response_item', payload);
const tokens = (n: number) =>
  line('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: n } } });

describe('parseCodex', () => {
  const text = [
    line('session_meta', { id: 'sess', base_instructions: { text: 'You are Codex.' } }),
    item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sandbox rules' }] }),
    line('turn_context', { model: 'gpt-5' }),
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'show tools' }] }),
    line('event_msg', { type: 'user_message', message: 'show tools' }),
    item({
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'thinking' }],
      encrypted_content: 'ENC',
    }),
    item({ type: 'function_call', name: 'exec', arguments: '{"cmd":"ls"}', call_id: 'c1' }),
    item({ type: 'function_call', name: 'exec', arguments: '{"cmd":"pwd"}', call_id: 'c2' }),
    tokens(100),
    item({ type: 'function_call_output', call_id: 'c1', output: 'a\nb' }),
    item({ type: 'function_call_output', call_id: 'c2', output: { content: 'denied', success: false } }),
    item({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'c3' }),
    tokens(200),
    item({ type: 'custom_tool_call_output', call_id: 'c3', output: 'ok' }),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
    tokens(300),
    line('event_msg', { type: 'user_message', message: 'only as an event' }),
  ].join('\n');
  const s = parseCodex(text, { file: 'r.jsonl' });

  it('reads session id, base instructions and developer messages', () => {
    expect(s.sessionId).toBe('sess');
    expect(s.system).toBe('You are Codex.');
    expect(s.messages[0]!.message).toEqual({
      role: 'system',
      parts: [{ type: 'text', text: 'sandbox rules' }],
    });
  });

  it('groups output items into steps and attaches each token_count to its step', () => {
    const shape = s.messages.map((m) => `${m.message.role}:${m.message.parts.map((p) => p.type).join('+')}`);
    expect(shape).toEqual([
      'system:text',
      'user:text',
      'assistant:reasoning+tool+tool',
      'assistant:tool',
      'assistant:text',
      'user:text',
    ]);
    expect(s.messages.filter((m) => m.usage !== undefined).map((m) => m.usage)).toEqual([
      { input_tokens: 100 },
      { input_tokens: 200 },
      { input_tokens: 300 },
    ]);
    expect(s.messages[2]!.model).toBe('gpt-5');
    expect(s.messages[2]!.createdAt).toBe(Date.parse(T));
  });

  it('keeps reasoning encrypted content and fills outputs (success:false → error)', () => {
    const step = s.messages[2]!.message.parts;
    expect(step[0]).toEqual({
      type: 'reasoning',
      text: 'thinking',
      providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'ENC' } },
    });
    expect(step[1]).toMatchObject({ callId: 'c1', input: { cmd: 'ls' }, state: 'completed', output: 'a\nb' });
    expect(step[2]).toMatchObject({ callId: 'c2', state: 'error', error: 'denied' });
    const patch = s.messages[3]!.message.parts[0] as ToolPart;
    expect(patch).toMatchObject({
      name: 'apply_patch',
      input: '*** Begin Patch',
      state: 'completed',
      output: 'ok',
    });
  });

  it('uses user_message events only when no response item recorded the message', () => {
    const users = s.messages.filter((m) => m.message.role === 'user');
    expect(users.map((m) => m.message.parts[0])).toEqual([
      { type: 'text', text: 'show tools' },
      { type: 'text', text: 'only as an event' },
    ]);
  });

  it('is detected from content', () => {
    expect(parseTranscript(text, { file: 'rollout.jsonl' })).toMatchObject({ format: 'codex' });
  });
});

/**
 * No real rollout here holds a compaction, so these follow codex-rs's CompactedItem
 * ({message, replacement_history?}): local compaction writes the summary (prefixed with its
 * hand-off note) and the history it continued with (kept user messages, the summary last).
 */
describe('Codex compacted items', () => {
  const SUMMARY = 'Another language model started to solve this problem...\nfix the parser; tests pass';
  const userItem = (text: string) => ({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text }],
  });
  const before = [
    line('turn_context', { model: 'gpt-5' }),
    item(userItem('fix the parser')),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'looking' }] }),
    tokens(1000),
  ];

  it('becomes a compaction after the messages before it; the kept history follows it', () => {
    const s = parseCodex(
      [
        ...before,
        line('compacted', {
          message: SUMMARY,
          replacement_history: [
            userItem('fix the parser'),
            userItem(SUMMARY),
            { type: 'compaction', encrypted_content: 'E' },
          ],
        }),
        item(userItem('now the docs')),
      ].join('\n'),
      { file: 'r.jsonl' },
    );
    expect(s.compactions).toEqual([{ at: 2, summary: SUMMARY, auto: false, createdAt: Date.parse(T) }]);
    // The summary is the pivot's, not repeated as a message; the kept user message follows.
    const texts = s.messages.map((m) => `${m.message.role}:${(m.message.parts[0] as { text: string }).text}`);
    expect(texts).toEqual([
      'user:fix the parser',
      'assistant:looking',
      'user:fix the parser',
      'user:now the docs',
    ]);
    expect(s.warnings).toEqual(['line 5: 1 replacement history items that are not messages skipped']);
  });

  it('without replacement history, only the summary stands for what came before', () => {
    const s = parseCodex([...before, line('compacted', { message: SUMMARY })].join('\n'));
    expect(s.compactions).toMatchObject([{ at: 2, summary: SUMMARY }]);
    expect(s.messages).toHaveLength(2);
  });

  it('without summary text (remote, encrypted) it is reported and the history stays in view', () => {
    const s = parseCodex([...before, line('compacted', { message: '' })].join('\n'));
    expect(s.compactions).toBeUndefined();
    expect(s.warnings).toEqual([
      'line 5: compaction without summary text skipped (the history before it stays in view)',
    ]);
  });
});

describe('bad Codex input names file, line and field', () => {
  const file = 'r.jsonl';
  it('a function_call without call_id', () => {
    const text = [
      line('session_meta', { id: 's' }),
      item({ type: 'function_call', name: 'f', arguments: '{}' }),
    ].join('\n');
    expect(inputErrorOf(() => parseCodex(text, { file }))).toMatchObject({
      file,
      line: 2,
      field: 'payload.call_id',
    });
  });

  it('a line without payload', () => {
    const text = [line('session_meta', { id: 's' }), JSON.stringify({ type: 'response_item' })].join('\n');
    expect(inputErrorOf(() => parseCodex(text, { file }))).toMatchObject({ file, line: 2, field: 'payload' });
  });

  it('a message with an unknown role', () => {
    const text = item({ type: 'message', role: 'oracle', content: [] });
    expect(inputErrorOf(() => parseCodex(text, { file }))).toMatchObject({
      file,
      line: 1,
      field: 'payload.role',
    });
  });

  it('a line that is not JSON', () => {
    const text = [line('session_meta', { id: 's' }), '', 'not json'].join('\n');
    expect(inputErrorOf(() => parseCodex(text, { file }))).toMatchObject({ file, line: 3 });
  });
});
