import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTranscript, NO_RESULT, parseTranscript } from '../../src/import/index.js';
import type { ImportedSession } from '../../src/import/types.js';
import { buildLog } from '../../src/model/build.js';
import type { MessageEntry } from '../../src/model/entry.js';
import type { ToolPart } from '../../src/model/parts.js';
import { emptySessionState } from '../../src/model/session.js';
import { parseMessage } from '../../src/model/validate.js';
import { memoryStore } from '../../src/store/memory.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import type { NewSession } from '../../src/store/store.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';
import { sessionRecord } from '../store/fixtures.js';
import { inputErrorOf } from './data.js';

/** Issue 10, item 5: nothing the file holds is dropped silently on import. */

const one = (parsed: ImportedSession | ImportedSession[]): ImportedSession => {
  if (Array.isArray(parsed)) throw new Error('expected one session');
  return parsed;
};

const toolParts = (s: ImportedSession): ToolPart[] =>
  s.messages.flatMap((m) => m.message.parts.filter((p): p is ToolPart => p.type === 'tool'));

const chatWithOrphan = JSON.stringify(
  [
    { role: 'user', content: 'read a.txt' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_typo', content: 'contents of a.txt' },
  ],
  null,
  2,
);

/** The line where the tool message (`[2]`) opens: the `{` just above its role. */
const ORPHAN_LINE = chatWithOrphan.split('\n').findIndex((l) => l.includes('"role": "tool"'));

describe('a tool result answering no call', () => {
  it('is kept where it was as a marked user message, and the call before it is no longer pending', () => {
    const s = one(parseTranscript(chatWithOrphan, { file: 'chat.json' }));
    const last = s.messages.at(-1)!.message;
    expect(last).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: expect.stringContaining('contents of a.txt') }],
      metadata: { orphanResult: { callId: 'call_typo' } },
    });
    // Before this fix the call stayed pending: its message was the last one kept.
    expect(toolParts(s)).toMatchObject([{ callId: 'call_1', state: 'error', error: NO_RESULT }]);
    expect(s.issues).toEqual([
      {
        kind: 'orphan-result',
        detail: expect.stringContaining('call_typo'),
        field: '[2]',
        line: ORPHAN_LINE,
      },
    ]);
  });

  it('in Claude Code and Codex too, with the line it is on', () => {
    const claude = [
      { type: 'user', message: { role: 'user', content: 'hi' } },
      {
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'late output' }],
        },
      },
    ];
    const cc = one(parseTranscript(claude.map((l) => JSON.stringify(l)).join('\n'), { file: 's.jsonl' }));
    expect(cc.issues).toMatchObject([{ kind: 'orphan-result', line: 2 }]);
    expect(cc.messages.at(-1)!.message.metadata).toEqual({ orphanResult: { callId: 'toolu_x' } });

    const codex = [
      { type: 'session_meta', payload: { id: 'r1' } },
      {
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'call_9', output: 'exit 0' },
      },
    ];
    const cx = one(parseTranscript(codex.map((l) => JSON.stringify(l)).join('\n'), { file: 'r.jsonl' }));
    expect(cx.issues).toMatchObject([{ kind: 'orphan-result', line: 2 }]);
    expect(JSON.stringify(cx.messages[0]!.message)).toContain('exit 0');
  });

  it('is refused under strict, naming file, line and field', () => {
    const e = inputErrorOf(() => parseTranscript(chatWithOrphan, { file: 'chat.json', strict: true }));
    expect(e).toMatchObject({ file: 'chat.json', line: ORPHAN_LINE, field: '[2]' });
    expect(e.message).toContain('call_typo');
    expect(e.message).toContain('--strict');
  });

  it('property: every tool result of the file ends up in a tool part or an orphan message', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ call: fc.constantFrom('a', 'b', 'c'), answer: fc.constantFrom('a', 'b', 'c', 'x') }),
          {
            maxLength: 8,
          },
        ),
        (steps) => {
          const chat = steps.flatMap(({ call, answer }, i) => [
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: call, type: 'function', function: { name: 'f', arguments: '{}' } }],
            },
            { role: 'tool', tool_call_id: answer, content: `out-${i}` },
          ]);
          const s = parseTranscript(JSON.stringify([{ role: 'user', content: 'go' }, ...chat]));
          const text = JSON.stringify(one(s).messages);
          for (let i = 0; i < steps.length; i++) expect(text).toContain(`out-${i}`);
          expect(one(s).issues?.length ?? 0).toBe(
            steps.length - toolParts(one(s)).filter((p) => p.state === 'completed').length,
          );
        },
      ),
    );
  });
});

describe('__proto__ keys in tool arguments', () => {
  const args = '{"__proto__":{"isAdmin":true},"path":"a.txt"}';
  const chat = JSON.stringify([
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: args } }],
    },
    { role: 'tool', tool_call_id: 'c', content: 'ok' },
  ]);

  function input(value: unknown): Record<string, unknown> {
    return value as Record<string, unknown>;
  }

  it('are kept as data through validation, both stores and JSON, and pollute no prototype', async () => {
    const part = toolParts(one(parseTranscript(chat)))[0]!;
    const validated = parseMessage({ role: 'assistant', parts: [part] }).parts[0] as ToolPart;
    expect(Object.hasOwn(input(validated.input), '__proto__')).toBe(true);
    expect(JSON.stringify(validated.input)).toBe(args);
    expect(Object.getPrototypeOf(validated.input)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    const entries = buildLog([{ role: 'assistant', parts: [validated] }], heuristicEstimator(), 's', 0);
    const session: NewSession = {
      record: { ...sessionRecord('s') },
      initial: {
        entries,
        commit: {
          sessionId: 's',
          expectedVersion: 0,
          headId: entries[0]!.id,
          nextSeq: 1,
          state: emptySessionState(),
        },
      },
    };
    for (const store of [memoryStore(), sqliteStore({ path: ':memory:' })]) {
      await store.createSessions([session]);
      const [loaded] = (await store.loadFrom('s', 0)) as MessageEntry[];
      const stored = loaded!.message.parts[0] as ToolPart;
      expect(JSON.stringify(stored.input), store.kind).toBe(args);
      await store.close();
    }
  });

  it('a value JSON cannot hold is still refused, naming its field', () => {
    const e = inputErrorOf(() =>
      parseMessage({
        role: 'assistant',
        parts: [{ type: 'tool', callId: 'c', name: 'f', input: { a: [1, Number.NaN] }, state: 'pending' }],
      }),
    );
    expect(e.field).toBe('parts[0].input.a[1]');
  });
});

describe('bytes that are not UTF-8', () => {
  it('are read as U+FFFD and reported per line with their count; a U+FFFD the file held is not counted', () => {
    const bytes = Buffer.concat([
      Buffer.from('[{"role":"user","content":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"},\n{"role":"assistant","content":"real \uFFFD kept"},\n{"role":"user","content":"'),
      Buffer.from([0xff, 0xfe, 0x41, 0xc3]),
      Buffer.from('"}]\n'),
    ]);
    const { text, issues } = decodeTranscript(bytes);
    expect(issues).toEqual([
      { kind: 'invalid-utf8', count: 1, line: 1, detail: '1 byte sequence that are not UTF-8' },
      { kind: 'invalid-utf8', count: 3, line: 3, detail: '3 byte sequences that are not UTF-8' },
    ]);
    expect(one(parseTranscript(text)).messages).toHaveLength(3);
  });

  it('valid UTF-8 (any text) gives no issue and the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decodeTranscript(Buffer.from(s, 'utf8'))).toEqual({ text: s, issues: [] });
      }),
    );
  });
});
