import { describe, expect, it } from 'vitest';
import { parseClaudeCode } from '../../src/import/index.js';

const at = (s: number) => `2026-01-07T21:08:${String(s).padStart(2, '0')}.000Z`;
const line = (r: object) => JSON.stringify({ sessionId: 's', cwd: '/Users/ann/repo', ...r });
const user = (text: string, s: number) =>
  line({ type: 'user', timestamp: at(s), message: { role: 'user', content: text } });
const call = (id: string, s: number) =>
  line({
    type: 'assistant',
    timestamp: at(s),
    message: {
      id: `m${id}`,
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: 'a.ts' } }],
    },
  });
const result = (id: string, s: number) =>
  line({
    type: 'user',
    timestamp: at(s),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x' }] },
  });
const queue = (operation: string, s: number, content?: string) =>
  JSON.stringify({
    type: 'queue-operation',
    operation,
    timestamp: at(s),
    sessionId: 's',
    ...(content ? { content } : {}),
  });

function texts(jsonl: string) {
  const s = parseClaudeCode(jsonl, { file: 'q.jsonl' });
  return {
    users: s.messages
      .filter((m) => m.message.role === 'user')
      .map((m) => [
        m.message.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join(''),
        m.message.metadata?.queued === true,
      ]),
    warnings: s.warnings,
    first: s.messages[0]?.message.metadata,
  };
}

describe('messages typed while Claude Code worked (queue-operation lines)', () => {
  it('taken in mid-turn (remove): a user message, flagged queued, where the agent took it', () => {
    const r = texts(
      [
        user('update the document', 1),
        call('t1', 2),
        queue('enqueue', 3, 'no, add the field'),
        queue('remove', 4),
        result('t1', 5),
      ].join('\n'),
    );
    expect(r.users).toEqual([
      ['update the document', false],
      ['no, add the field', true],
    ]);
  });

  it('handed over as the next user line (dequeue): kept once, not twice', () => {
    const r = texts([user('a', 1), queue('enqueue', 2, 'b'), queue('dequeue', 3), user('b', 4)].join('\n'));
    expect(r.users).toEqual([
      ['a', false],
      ['b', false],
    ]);
  });

  it('taken back for editing (popAll): the edited message counts, not the draft', () => {
    const r = texts(
      [
        user('a', 1),
        call('t1', 2),
        queue('enqueue', 3, 'check x'),
        queue('popAll', 4, 'check x'),
        queue('enqueue', 5, 'check x and y'),
        queue('remove', 6),
        result('t1', 7),
      ].join('\n'),
    );
    expect(r.users.map(([t]) => t)).toEqual(['a', 'check x and y']);
  });

  it('still queued when the file ends: kept, with a warning', () => {
    const r = texts([user('a', 1), queue('enqueue', 2, 'and then deploy')].join('\n'));
    expect(r.users.at(-1)).toEqual(['and then deploy', true]);
    expect(r.warnings).toContain('1 queued message(s) never delivered kept at the end');
  });

  it('the working directory rides on the first message', () => {
    expect(texts(user('a', 1)).first).toEqual({ cwd: '/Users/ann/repo' });
  });
});
