import { describe, expect, it } from 'vitest';
import { parseClaudeCode, parseTranscript } from '../../src/import/index.js';
import { inputErrorOf } from './data.js';

const SIG = 'EoIpCkgICxABGAIq+/=\u00e9x';

function lines(...records: unknown[]): string {
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

const user = (content: unknown, extra: object = {}) => ({
  type: 'user',
  sessionId: 's1',
  timestamp: '2026-01-01T00:00:00.000Z',
  message: { role: 'user', content },
  ...extra,
});
const assistant = (id: string, content: unknown[], usage: object = { output_tokens: 1 }) => ({
  type: 'assistant',
  sessionId: 's1',
  timestamp: '2026-01-01T00:00:01.000Z',
  message: { id, model: 'claude-x', role: 'assistant', content, usage },
});

describe('parseClaudeCode', () => {
  const text = lines(
    { type: 'file-history-snapshot', snapshot: {} },
    user('fix it'),
    assistant('m1', [{ type: 'thinking', thinking: 'hmm', signature: SIG }], { output_tokens: 1 }),
    assistant('m1', [{ type: 'text', text: 'on it' }], { output_tokens: 2 }),
    assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a' } }], {
      output_tokens: 3,
    }),
    assistant('m1', [{ type: 'tool_use', id: 't2', name: 'Bash', input: { cmd: 'x' } }], {
      output_tokens: 4,
    }),
    user([{ type: 'tool_result', tool_use_id: 't1', content: 'file a' }]),
    user([
      {
        type: 'tool_result',
        tool_use_id: 't2',
        is_error: true,
        content: [
          { type: 'text', text: 'boom' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA=' } },
        ],
      },
    ]),
    { type: 'summary', summary: 'a title, not a conversation summary', leafUuid: 'u' },
    { type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'manual', preTokens: 99 } },
    user('the summary', { isCompactSummary: true }),
    user('sub-agent talk', { isSidechain: true }),
    assistant('m2', [{ type: 'tool_use', id: 't3', name: 'Read', input: {} }]),
  );
  const s = parseClaudeCode(text, { file: 'c.jsonl' });

  it('merges streamed lines of one response, keeping the last usage', () => {
    expect(s.sessionId).toBe('s1');
    const roles = s.messages.map((m) => m.message.role);
    expect(roles).toEqual(['user', 'assistant', 'assistant']);
    const a = s.messages[1]!;
    expect(a.usage).toEqual({ output_tokens: 4 });
    expect(a.model).toBe('claude-x');
    expect(a.createdAt).toBe(Date.parse('2026-01-01T00:00:01.000Z'));
    expect(a.message.parts.map((p) => p.type)).toEqual(['reasoning', 'text', 'tool', 'tool']);
  });

  it('keeps the thinking signature byte for byte', () => {
    expect(s.messages[1]!.message.parts[0]).toEqual({
      type: 'reasoning',
      text: 'hmm',
      providerMetadata: { anthropic: { signature: SIG } },
    });
  });

  it('fills tool results into their calls: output, error with attachments, in flight at the end', () => {
    const [, , t1, t2] = s.messages[1]!.message.parts;
    expect(t1).toMatchObject({ callId: 't1', state: 'completed', output: 'file a', input: { path: 'a' } });
    expect(t2).toMatchObject({
      callId: 't2',
      state: 'error',
      error: 'boom',
      attachments: [{ type: 'file', mediaType: 'image/png', data: 'AAA=' }],
    });
    expect(s.messages[2]!.message.parts[0]).toMatchObject({ callId: 't3', state: 'pending' });
  });

  it('makes the compact_boundary and its summary one compaction, skips titles and sidechains', () => {
    // Not a message: the summary is what Claude Code sent in place of the two messages before it.
    expect(s.messages.some((m) => m.message.metadata?.summary)).toBe(false);
    expect(s.compactions).toEqual([
      {
        at: 2,
        summary: 'the summary',
        auto: false,
        tokensBefore: 99,
        createdAt: Date.parse('2026-01-01T00:00:00.000Z'),
        source: { compactMetadata: { trigger: 'manual', preTokens: 99 } },
      },
    ]);
    expect(s.warnings).toContain('1 sub-agent (sidechain) lines skipped');
  });

  it('is detected from content', () => {
    expect(parseTranscript(text, { file: 'no-extension' })).toMatchObject({ format: 'claude-code' });
  });
});

describe('Claude Code compactions', () => {
  const boundary = (trigger: string, preTokens?: number) => ({
    type: 'system',
    subtype: 'compact_boundary',
    timestamp: '2026-01-01T00:00:05.000Z',
    compactMetadata: { trigger, ...(preTokens === undefined ? {} : { preTokens }) },
  });

  it('takes the summary from text blocks, the time from the boundary, auto from its trigger', () => {
    const s = parseClaudeCode(
      lines(
        user('a'),
        assistant('m1', [{ type: 'text', text: 'b' }]),
        boundary('auto'),
        user(
          [
            { type: 'text', text: 'part one' },
            { type: 'text', text: 'part two' },
          ],
          { isCompactSummary: true },
        ),
        user('c'),
      ),
    );
    expect(s.compactions).toMatchObject([
      { at: 2, summary: 'part one\npart two', auto: true, createdAt: Date.parse('2026-01-01T00:00:05.000Z') },
    ]);
    expect(s.compactions![0]!.tokensBefore).toBeUndefined();
    expect(s.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('reports a boundary with no summary after it and keeps the history in view', () => {
    const s = parseClaudeCode(lines(user('a'), boundary('manual', 5), user('b')), { file: 'c.jsonl' });
    expect(s.compactions).toBeUndefined();
    expect(s.messages).toHaveLength(2);
    expect(s.warnings).toEqual([
      'line 2: compact_boundary without a summary after it skipped (the history before it stays in view)',
    ]);
  });

  it('a summary with nothing before it stays a flagged user message, reported', () => {
    const s = parseClaudeCode(lines(boundary('auto', 7), user('resumed', { isCompactSummary: true })));
    expect(s.compactions).toBeUndefined();
    expect(s.messages[0]!.message).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'resumed' }],
      metadata: { summary: true, compaction: { trigger: 'auto', preTokens: 7 } },
    });
    expect(s.warnings).toEqual([
      'line 2: compact summary with no earlier messages imported as a user message',
    ]);
  });

  it('an empty summary is bad input', () => {
    const text = lines(user('a'), boundary('auto'), user('  ', { isCompactSummary: true }));
    const e = inputErrorOf(() => parseClaudeCode(text, { file: 'c.jsonl' }));
    expect(e).toMatchObject({ file: 'c.jsonl', line: 3, field: 'message.content' });
  });
});

describe('bad Claude Code input names file, line and field', () => {
  const file = 'c.jsonl';
  it('a line that is not JSON', () => {
    const e = inputErrorOf(() => parseClaudeCode(`${lines(user('a'))}{"type": "user",\n`, { file }));
    expect(e).toMatchObject({ file, line: 2 });
    expect(e.message).toMatch(/^c\.jsonl:line 2: malformed JSON line/);
  });

  it('a tool_use without id', () => {
    const text = lines(
      user('a'),
      assistant('m', [
        { type: 'text', text: 'x' },
        { type: 'tool_use', name: 'f', input: {} },
      ]),
    );
    const e = inputErrorOf(() => parseClaudeCode(text, { file }));
    expect(e).toMatchObject({ file, line: 2, field: 'message.content[1].id' });
  });

  it('a line without type', () => {
    const e = inputErrorOf(() => parseClaudeCode(lines(user('a'), { message: {} }), { file }));
    expect(e).toMatchObject({ file, line: 2, field: 'type' });
  });

  it('a text block whose text is not a string', () => {
    const e = inputErrorOf(() => parseClaudeCode(lines(user([{ type: 'text', text: 3 }])), { file }));
    expect(e).toMatchObject({ file, line: 1, field: 'message.content[0].text' });
  });
});
