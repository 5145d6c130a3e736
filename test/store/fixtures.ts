import { buildCompactionEntry, buildLog, buildMessageEntry } from '../../src/model/build.js';
import type { CompactionEntry, Entry, MessageEntry, Pivot } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import { emptySessionState, type SessionRecord } from '../../src/model/session.js';
import type { Commit } from '../../src/store/store.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';

export const estimator = heuristicEstimator();

export function sessionRecord(id: string, createdAt = 1_700_000_000_000): SessionRecord {
  return {
    id,
    createdAt,
    updatedAt: createdAt,
    headId: null,
    version: 0,
    nextSeq: 0,
    metadata: { title: `session ${id}` },
    state: emptySessionState(),
  };
}

/** A commit that follows `record` with `entries` appended: what the session layer would send. */
export function commitAfter(record: SessionRecord, entries: readonly Entry[] = []): Commit {
  const last = entries.at(-1);
  const added = entries.reduce((sum, e) => sum + e.tokens, 0);
  return {
    sessionId: record.id,
    expectedVersion: record.version,
    headId: last?.id ?? record.headId,
    nextSeq: last === undefined ? record.nextSeq : last.seq + 1,
    state: {
      ...record.state,
      entryCount: record.state.entryCount + entries.length,
      totalTokens: record.state.totalTokens + added,
      activeTokens: record.state.activeTokens + added,
    },
  };
}

/** Alternating user/assistant text messages numbered from `startSeq`, ids `${sessionId}-e${seq}`. */
export function textEntries(sessionId: string, count: number, startSeq = 0): MessageEntry[] {
  const messages: Message[] = Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    parts: [{ type: 'text', text: `message ${startSeq + i}` }],
  }));
  // Fixed ids and times so that two calls build equal entries to compare against.
  return buildLog(messages, estimator, sessionId, startSeq).map((e) => ({
    ...e,
    id: `${sessionId}-e${e.seq}`,
    parentId: e.seq === startSeq ? null : `${sessionId}-e${e.seq - 1}`,
    createdAt: 1_700_000_000_000 + e.seq,
  }));
}

export function entryAt(sessionId: string, seq: number, id: string): MessageEntry {
  const message: Message = { role: 'user', parts: [{ type: 'text', text: `entry ${id}` }] };
  return buildMessageEntry(message, { sessionId, seq, parentId: null, id, createdAt: 1 }, estimator);
}

/** An entry of about 40,000 tokens of varied words (a long tool output's worth). */
export function fatEntry(sessionId: string, seq: number): MessageEntry {
  const words = Array.from({ length: 30_000 }, (_, i) => `w${(i * 7919 + seq) % 10_007}`).join(' ');
  const message: Message = { role: 'user', parts: [{ type: 'text', text: words }] };
  return buildMessageEntry(
    message,
    { sessionId, seq, parentId: null, id: `${sessionId}-f${seq}`, createdAt: 1 },
    estimator,
  );
}

/** ~1.5M characters of tool output with every kind of text a real shell prints. */
export const BIG_OUTPUT = 'line ✓ ünïcödé 日本語 \t "quoted" \\ back\\slash\n'.repeat(36_000);

/** Values that break naive serializers: signatures, unicode, huge strings, nested JSON. */
export function richEntries(sessionId: string, startSeq = 0): Entry[] {
  const place = (i: number, parentId: string | null) => ({
    sessionId,
    seq: startSeq + i,
    parentId,
    id: `${sessionId}-rich${i}`,
    createdAt: 1_700_000_000_123 + i,
  });
  const user: Message = {
    role: 'user',
    parts: [
      {
        type: 'text',
        text: 'Zażółć gęślą jaźń 🦀👩‍👩‍👧 e\u0301 \u0000 nul, \u2028 line sep, "quotes" </script> lone \ud83d surrogate',
      },
      {
        type: 'file',
        mediaType: 'image/png',
        data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk',
      },
    ],
    metadata: { client: { name: 'cli', tags: ['a', 'b'], nested: { deep: [1, 2.5, -3e-7, null, true] } } },
  };
  const assistant: Message = {
    role: 'assistant',
    parts: [
      {
        type: 'reasoning',
        text: 'Let me think… step 1 → step 2',
        providerMetadata: {
          anthropic: { signature: 'ErUBCkYIBxgCIkD+/=sig/with+base64==' + 'Q'.repeat(600) },
          openai: { itemId: 'rs_68a1', reasoningEncryptedContent: 'gAAAAABo' + 'x'.repeat(2_000) },
        },
      },
      {
        type: 'tool',
        callId: 'call_1',
        name: 'bash',
        state: 'completed',
        input: { command: 'cat big.log', env: { LANG: 'C.UTF-8' }, args: [['-n'], { x: { y: { z: [] } } }] },
        output: BIG_OUTPUT,
        startedAt: 1_700_000_000_200,
        endedAt: 1_700_000_000_900,
      },
      { type: 'tool', callId: 'call_2', name: 'read', state: 'error', input: null, error: 'ENOENT: ö.txt' },
      { type: 'text', text: 'Done. 完了 ✅' },
    ],
    metadata: { finish: 'tool-calls' },
  };
  const first = buildMessageEntry(user, place(0, null), estimator);
  const second = buildMessageEntry(assistant, place(1, first.id), estimator);
  return [first, second, pivotEntry(sessionId, startSeq + 2, `${sessionId}-rich2`, second.id, first.id)];
}

export function pivotEntry(
  sessionId: string,
  seq: number,
  id: string,
  parentId: string | null,
  summarizedThroughId: string,
): CompactionEntry {
  const pivot: Pivot = {
    summary: '## Goal\nKeep the ✓ working.\n\n## Files\n- src/ü.ts',
    summarizedThroughId,
    firstKeptId: parentId,
    tokensBefore: 180_000,
    tokensAfter: 12_345,
    auto: true,
    summarizer: 'llm',
    model: 'anthropic/claude-x',
    details: { filesRead: ['a.ts'], filesModified: ['b.ts'], extra: { n: { m: [1, 'two'] } } },
    previousPivotId: null,
    markerId: 'marker-1',
  };
  return buildCompactionEntry(
    pivot,
    { sessionId, seq, parentId, id, createdAt: 1_700_000_001_000 },
    estimator,
  );
}
