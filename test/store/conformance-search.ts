import { describe, expect, it } from 'vitest';
import { buildMessageEntry } from '../../src/model/build.js';
import type { Entry } from '../../src/model/entry.js';
import { InputError } from '../../src/model/errors.js';
import type { Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import type { SessionRecord } from '../../src/model/session.js';
import type { StoreHandle } from './conformance.js';
import { commitAfter, estimator, pivotEntry, sessionRecord } from './fixtures.js';

const tool = (output: string): ToolPart => ({
  type: 'tool',
  callId: 'call_1',
  name: 'read_file',
  input: { path: 'src/auth/session-store.ts' },
  state: 'completed',
  output,
});

/** Messages whose words sit in every place a search must look. */
const MESSAGES: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'Please fix the Café login; never push to main' }] },
  {
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'The quokka handler is suspicious' },
      tool('export const SECRET_ROTATION_DAYS = 42; // authentication settings'),
    ],
  },
  {
    role: 'assistant',
    parts: [
      {
        type: 'tool',
        callId: 'call_2',
        name: 'bash',
        input: { command: 'npm test' },
        state: 'error',
        error: 'ECONNREFUSED while reaching the flamingo service',
      },
    ],
  },
  { role: 'user', parts: [{ type: 'text', text: 'alpha alpha gamma delta' }] },
  { role: 'assistant', parts: [{ type: 'text', text: 'alpha beta gamma delta' }] },
];

function entries(sessionId: string, messages: Message[] = MESSAGES, startSeq = 0): Entry[] {
  return messages.map((message, i) =>
    buildMessageEntry(
      message,
      {
        sessionId,
        seq: startSeq + i,
        parentId: i === 0 ? null : `${sessionId}-m${startSeq + i - 1}`,
        id: `${sessionId}-m${startSeq + i}`,
        createdAt: 1_700_000_000_000 + startSeq + i,
      },
      estimator,
    ),
  );
}

/** Full-text search: where it looks, how words match, scope, order, limits and bad queries. */
export function searchConformance(h: StoreHandle): void {
  async function seeded(id = 's1', list = entries(id)): Promise<SessionRecord> {
    const record = sessionRecord(id);
    await h.store().createSession(record);
    return h.store().append(list, commitAfter(record, list));
  }
  const ids = async (query: string, opts = {}) => (await h.store().search(query, opts)).map((x) => x.entryId);

  describe('full-text search', () => {
    it('finds words in text, reasoning, tool input, output and error, and says where they are', async () => {
      await seeded();
      const [hit] = await h.store().search('login');
      expect(hit).toStrictEqual({
        sessionId: 's1',
        entryId: 's1-m0',
        seq: 0,
        kind: 'message',
        role: 'user',
        createdAt: 1_700_000_000_000,
        snippet: 'Please fix the Café «login»; never push to main',
        score: expect.any(Number),
      });
      expect(await ids('quokka')).toStrictEqual(['s1-m1']);
      expect(await ids('session-store.ts')).toStrictEqual(['s1-m1']);
      expect(await ids('SECRET_ROTATION_DAYS')).toStrictEqual(['s1-m1']);
      expect(await ids('flamingo')).toStrictEqual(['s1-m2']);
      expect(await ids('bash')).toStrictEqual(['s1-m2']);
    });

    it("finds a pivot's summary as a compaction hit", async () => {
      const record = await seeded();
      const pivot = pivotEntry('s1', 5, 'p1', 's1-m4', 's1-m2');
      await h.store().append([pivot], commitAfter(record, [pivot]));
      const hits = await h.store().search('working');
      expect(hits.map((x) => [x.entryId, x.kind, x.role])).toStrictEqual([['p1', 'compaction', null]]);
      expect(hits[0]!.snippet).toContain('«working»');
    });

    it('ignores case and accents, matches a chunk as a phrase and `word*` as a prefix', async () => {
      await seeded();
      expect(await ids('CAFE')).toStrictEqual(['s1-m0']);
      expect(await ids('café LOGIN')).toStrictEqual(['s1-m0']);
      expect(await ids('"push to main"')).toStrictEqual(['s1-m0']);
      expect(await ids('"main to push"')).toStrictEqual([]);
      expect(await ids('auth*')).toStrictEqual(['s1-m1']);
      expect(await ids('auth')).toStrictEqual(['s1-m1']); // "src/auth/…" holds the word itself
      expect(await ids('authent')).toStrictEqual([]);
      expect(await ids('"flamin"*')).toStrictEqual(['s1-m2']);
    });

    it('needs every term; a word missing anywhere gives nothing', async () => {
      await seeded();
      expect(await ids('login main')).toStrictEqual(['s1-m0']);
      expect(await ids('login quokka')).toStrictEqual([]);
    });

    it('ranks more occurrences first, then newest first among equals', async () => {
      await seeded();
      expect(await ids('alpha')).toStrictEqual(['s1-m3', 's1-m4']);
      expect(await ids('gamma delta')).toStrictEqual(['s1-m4', 's1-m3']);
    });

    it('searches one session or all, up to the limit', async () => {
      await seeded('s1');
      await seeded('s2');
      expect((await ids('gamma')).sort()).toStrictEqual(['s1-m3', 's1-m4', 's2-m3', 's2-m4']);
      expect(await ids('gamma', { sessionId: 's2' })).toStrictEqual(['s2-m4', 's2-m3']);
      expect(await ids('gamma', { sessionId: 'nope' })).toStrictEqual([]);
      expect(await ids('gamma', { limit: 1 })).toHaveLength(1);
    });

    it('finds entries of a session created with them, and forgets a deleted session', async () => {
      const record = sessionRecord('s1');
      const list = entries('s1');
      await h.store().createSession(record, { entries: list, commit: commitAfter(record, list) });
      expect(await ids('quokka')).toStrictEqual(['s1-m1']);
      await h.store().deleteSession('s1');
      expect(await ids('quokka')).toStrictEqual([]);
    });

    it('still finds a pruned (hidden) output; an erased one is found by what replaced it', async () => {
      const record = await seeded();
      const marked = { ...tool('export const SECRET_ROTATION_DAYS = 42'), compactedAt: 5 };
      const hidden = await h
        .store()
        .updateParts(
          [{ entryId: 's1-m1', parts: [marked], partTokens: [10], tokens: 14 }],
          commitAfter(record),
        );
      expect(await ids('SECRET_ROTATION_DAYS')).toStrictEqual(['s1-m1']);
      const erased = { ...tool('[Old tool result content cleared]'), compactedAt: 5 };
      await h
        .store()
        .updateParts(
          [{ entryId: 's1-m1', parts: [erased], partTokens: [8], tokens: 12 }],
          commitAfter(hidden),
        );
      expect(await ids('SECRET_ROTATION_DAYS')).toStrictEqual([]);
      expect(await ids('"content cleared"')).toStrictEqual(['s1-m1']);
    });

    it('cuts a long text around the first match', async () => {
      const long = `${'lorem '.repeat(200)}needle ${'ipsum '.repeat(200)}`;
      await seeded('s1', entries('s1', [{ role: 'user', parts: [{ type: 'text', text: long }] }]));
      const [hit] = await h.store().search('needle');
      expect(hit!.snippet).toMatch(/^…(lorem ){8}«needle»( ipsum){15}…$/);
    });

    it('quotes the matched words in their sentence, where the terms meet', async () => {
      const text = `Deploy notes.\n${'Step done; '.repeat(20)}all done. The staging deploy key is kestrel-4417. Rotate it.`;
      await seeded('s1', entries('s1', [{ role: 'user', parts: [{ type: 'text', text }] }]));
      const [hit] = await h.store().search('deploy kestrel*');
      expect(hit!.snippet).toBe('…The staging «deploy» key is «kestrel»-4417. Rotate it.');
    });

    it('reads FTS operators and quotes in a query as words, never as syntax', async () => {
      await seeded();
      for (const query of ['login AND OR NOT', 'NEAR(login main)', 'login"', 'login -main', 'login^ {x}:']) {
        await expect(h.store().search(query)).resolves.toBeInstanceOf(Array);
      }
      expect(await ids('NEAR(login main)')).toStrictEqual([]);
    });

    it('refuses a query without words and a limit out of range', async () => {
      await expect(h.store().search('  "" * -- ')).rejects.toBeInstanceOf(InputError);
      await expect(h.store().search('x', { limit: 0 })).rejects.toThrow(/limit/);
      await expect(h.store().search('x', { limit: 2.5 })).rejects.toThrow(/limit/);
    });
  });
}
