import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportJsonl, parseCondenseJsonl, parseTranscript } from '../../src/import/index.js';
import { buildCompactionEntry, buildLog } from '../../src/model/build.js';
import type { Entry } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';
import { inputErrorOf } from './data.js';

const session = { id: 'chat-1', createdAt: 1_700_000_000_000, metadata: { title: 'demo' } };

const messages: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'read a.ts' }] },
  {
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'ok', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'tool', callId: 'c1', name: 'read', input: { path: 'a.ts' }, state: 'completed', output: 'x' },
    ],
  },
  { role: 'assistant', parts: [{ type: 'text', text: 'done' }] },
];

function log(): Entry[] {
  const entries: Entry[] = buildLog(messages, heuristicEstimator(), 'chat-1');
  const pivot = {
    summary: 'user asked to read a.ts',
    summarizedThroughId: 'e1',
    firstKeptId: 'e2',
    tokensBefore: 100,
    tokensAfter: 20,
    auto: true,
    summarizer: 'extractive',
    details: { filesRead: ['a.ts'], filesModified: [] },
    previousPivotId: null,
  };
  const place = { sessionId: 'chat-1', seq: 3, parentId: 'e2', id: 'p1', createdAt: 5 };
  entries.push(buildCompactionEntry(pivot, place, heuristicEstimator()));
  return entries;
}

/** The export with line `n` (1-based) replaced by `edit` applied to its parsed value. */
function editLine(text: string, n: number, edit: (value: Record<string, unknown>) => void): string {
  const lines = text.split('\n');
  const value = JSON.parse(lines[n - 1]!) as Record<string, unknown>;
  edit(value);
  lines[n - 1] = JSON.stringify(value);
  return lines.join('\n');
}

describe('condense JSONL export', () => {
  it('round-trips session header and entries exactly', () => {
    const entries = log();
    const text = exportJsonl(session, entries);
    expect(text.split('\n').filter(Boolean)).toHaveLength(entries.length + 1);
    expect(parseCondenseJsonl(text, { file: 's.jsonl' })).toEqual({ session, entries });
  });

  it('carries the last reported usage and the calibration in the header; a usage past the log is refused', () => {
    const entries = log();
    const state = {
      lastUsage: {
        usage: { inputTotal: 9000, cacheRead: 8000, cacheWrite: 900, output: 50, reasoning: 0 },
        model: 'claude-x',
        afterSeq: 2,
      },
      addedSinceUsage: 12,
      calibration: {
        'claude-x': {
          ratio: 1.3,
          overheadRaw: 0,
          residual: 2500.5,
          samples: 4,
          anchorRaw: 5000,
          anchorTokens: 9000,
        },
      },
    };
    // A whole session record exports only the figures the log cannot rebuild.
    const record = { ...session, state: { ...state, activeTokens: 99, pivotId: 'p1' } };
    const text = exportJsonl(record as typeof session & { state: typeof state }, entries);
    expect(parseCondenseJsonl(text)).toEqual({ session: { ...session, state }, entries });
    const past = editLine(text, 1, (h) => {
      (h.state as typeof state).lastUsage.afterSeq = 9;
    });
    expect(inputErrorOf(() => parseCondenseJsonl(past, { file: 's.jsonl' }))).toMatchObject({
      file: 's.jsonl',
      line: 1,
      field: 'state.lastUsage.afterSeq',
    });
  });

  it('property: any log of text messages round-trips', () => {
    const message = fc.record({
      role: fc.constantFrom('user' as const, 'assistant' as const),
      parts: fc.array(fc.record({ type: fc.constant('text' as const), text: fc.string() }), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (list) => {
        const entries = buildLog(list, heuristicEstimator(), 'chat-1');
        expect(parseCondenseJsonl(exportJsonl(session, entries)).entries).toEqual(entries);
      }),
    );
  });

  it('parseTranscript detects it and carries the exact entries along', () => {
    const entries = log();
    const imported = parseTranscript(exportJsonl(session, entries), { file: 'export.jsonl' });
    expect(imported).toMatchObject({ format: 'condense', sessionId: 'chat-1' });
    if (Array.isArray(imported)) throw new Error('one session expected');
    expect(imported.condense?.entries).toEqual(entries);
    expect(imported.messages.at(-1)?.message).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'user asked to read a.ts' }],
      metadata: { summary: true },
    });
  });
});

describe('bad condense JSONL names file, line and field', () => {
  const file = 'session.jsonl';
  const text = exportJsonl(session, log());

  it('an unknown part type', () => {
    const bad = editLine(text, 3, (v) => {
      const message = v.message as { parts: { type: string }[] };
      message.parts[1]!.type = 'hologram';
    });
    const e = inputErrorOf(() => parseCondenseJsonl(bad, { file }));
    expect(e).toMatchObject({ file, line: 3, field: 'message.parts[1].type' });
    expect(e.message).toContain(
      'session.jsonl:line 3, field message.parts[1].type: unknown part type "hologram"',
    );
  });

  it('a missing id', () => {
    const bad = editLine(text, 2, (v) => {
      delete v.id;
    });
    expect(inputErrorOf(() => parseCondenseJsonl(bad, { file }))).toMatchObject({
      file,
      line: 2,
      field: 'id',
    });
  });

  it('a wrong role', () => {
    const bad = editLine(text, 2, (v) => {
      (v.message as { role: string }).role = 'wizard';
    });
    expect(inputErrorOf(() => parseCondenseJsonl(bad, { file }))).toMatchObject({
      file,
      line: 2,
      field: 'message.role',
    });
  });

  it('a duplicate id, a seq that does not increase, a parent that is not earlier', () => {
    const dup = editLine(text, 3, (v) => {
      v.id = 'e0';
    });
    expect(inputErrorOf(() => parseCondenseJsonl(dup, { file }))).toMatchObject({ line: 3, field: 'id' });
    const seq = editLine(text, 4, (v) => {
      v.seq = 1;
    });
    expect(inputErrorOf(() => parseCondenseJsonl(seq, { file }))).toMatchObject({ line: 4, field: 'seq' });
    const parent = editLine(text, 2, (v) => {
      v.parentId = 'e2';
    });
    expect(inputErrorOf(() => parseCondenseJsonl(parent, { file }))).toMatchObject({
      line: 2,
      field: 'parentId',
    });
  });

  it('an entry of another session, a bad header, a line that is not JSON', () => {
    const other = editLine(text, 2, (v) => {
      v.sessionId = 'elsewhere';
    });
    expect(inputErrorOf(() => parseCondenseJsonl(other, { file }))).toMatchObject({
      line: 2,
      field: 'sessionId',
    });
    const header = editLine(text, 1, (v) => {
      v.createdAt = 'yesterday';
    });
    expect(inputErrorOf(() => parseCondenseJsonl(header, { file }))).toMatchObject({
      line: 1,
      field: 'createdAt',
    });
    const broken = text.replace('"kind":"message"', '"kind":"message",,');
    expect(inputErrorOf(() => parseCondenseJsonl(broken, { file }))).toMatchObject({ file, line: 2 });
    expect(inputErrorOf(() => parseCondenseJsonl('', { file }))).toMatchObject({ file, line: 1 });
  });
});
