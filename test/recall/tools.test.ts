/** The recall tools' contracts, through their plain specs (what frameworks other than the AI SDK register). */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json.js';
import { NO_ARCHIVE } from '../../src/recall/archive.js';
import { type RecallToolSpec, recallToolSpecs } from '../../src/recall/tools.js';
import { openSession, type Session } from '../../src/session/index.js';
import type { JsonlStore } from '../../src/store/jsonl.js';
import { memoryStore } from '../../src/store/memory.js';
import { compactedSession, FACT, makeStore, STORE_KINDS } from './support.js';

type Result = Record<string, JsonValue> & { error?: string };

function tools(session: Session, opts: Parameters<typeof recallToolSpecs>[1] = {}) {
  const specs = recallToolSpecs(session, opts);
  const run = (name: RecallToolSpec['name']) => (input: unknown) =>
    specs.find((s) => s.name === name)!.execute(input) as Promise<Result>;
  return { specs, archive: run('session_archive_read'), search: run('history_search') };
}

describe('session_archive_read', () => {
  it("answers seed 003's 'no archived session' before any compaction", async () => {
    const session = await openSession(memoryStore(), 's');
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'hello' }] });
    expect(await tools(session).archive({})).toEqual({ archive: null, message: NO_ARCHIVE });
  });

  it('reads only the most recent archive: older archives and paths outside the session are refused', async () => {
    const { store, dispose } = makeStore('jsonl');
    try {
      const session = await compactedSession(store, 3);
      const { archive } = tools(session);
      const pivots = (await session.history()).filter((e) => e.kind === 'compaction');
      const names = await Promise.all(pivots.map((p) => (store as JsonlStore).archiveOf('s', p.id)));
      const latest = names.at(-1)!;
      expect((await archive({ file: latest })).archive).toBe(latest);
      for (const file of [
        names[0]!,
        names[1]!,
        '../other/current.jsonl',
        '/etc/passwd',
        'current.jsonl',
        'session.json',
      ]) {
        const refused = await archive({ file });
        expect(refused.error, file).toMatch(new RegExp(`only ${latest.replace('.', '\\.')} .* is readable`));
        expect(refused).not.toHaveProperty('entries');
      }
      // A range reaching into an older archive is refused too, naming what is readable.
      const { first } = (await archive({})) as { first: number };
      expect((await archive({ from: first - 1 })).error).toMatch(
        /before the most recent archive .* older archives are not readable/,
      );
      expect((await archive({ from: 10_000 })).error).toMatch(/no entries in 10000/);
    } finally {
      await store.close();
      dispose();
    }
  });

  it('pages by entry range and says where the next page starts', async () => {
    const { store, dispose } = makeStore('memory');
    try {
      const session = await compactedSession(store, 2);
      const { archive } = tools(session, { page: { entries: 3 } });
      const whole = (await tools(session).archive({})) as {
        first: number;
        last: number;
        count: number;
        entries: { seq: number }[];
      };
      expect(whole.entries).toHaveLength(whole.count);
      const seen: number[] = [];
      type Range = { from: number; to: number } | null;
      let next: Range = { from: whole.first, to: whole.last };
      while (next !== null) {
        const page = (await archive(next)) as { entries: { seq: number }[]; next: Range };
        expect(page.entries.length).toBeLessThanOrEqual(3);
        seen.push(...page.entries.map((e) => e.seq));
        next = page.next;
      }
      expect(seen).toEqual(whole.entries.map((e) => e.seq));
      const one = (await archive({ from: whole.first + 1, to: whole.first + 1 })) as {
        entries: { seq: number }[];
        next: null;
      };
      expect(one.entries.map((e) => e.seq)).toEqual([whole.first + 1]);
      expect(one.next).toBeNull();
      // The previous summary opens the span, as seed 003's archive opens with the previous summary line.
      expect((whole.entries[0] as unknown as { text: string }).text).toMatch(
        /^Summary \(compaction .*\): Summary: compaction 1/,
      );
    } finally {
      dispose();
    }
  });

  it('refuses bad input with a message instead of throwing', async () => {
    const session = await openSession(memoryStore(), 's');
    expect((await tools(session).archive({ from: -1 })).error).toMatch(/bad input: from/);
    expect((await tools(session).archive({ file: 3 })).error).toMatch(/bad input: file/);
  });
});

describe('history_search', () => {
  it('finds pruned tool outputs, which the model no longer sees', async () => {
    const session = await openSession(memoryStore(), 's', {
      prune: { protectTokens: 0, minimumTokens: 0, protectTurns: 0 },
    });
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'Read the config.' }] });
    await session.append({
      role: 'assistant',
      parts: [
        {
          type: 'tool',
          callId: 'c1',
          name: 'read',
          input: { path: 'app.env' },
          state: 'completed',
          output: `PORT=8080\n${FACT}`,
        },
      ],
    });
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] });
    expect((await session.prune())?.parts).toBe(1);
    expect(JSON.stringify((await session.prepare()).messages)).not.toContain('kestrel');
    const found = await tools(session).search({ query: 'kestrel*' });
    expect(found.hits).toEqual([expect.objectContaining({ seq: 1, where: 'context', read: null })]);
    // The line of the output that matched, not the call's name and input before it.
    expect((found.hits as { snippet: string }[])[0]!.snippet).toBe(
      '…The staging deploy key is «kestrel»-4417.',
    );
    expect(
      (await tools(session).search({ entryId: (found.hits as { entryId: string }[])[0]!.entryId })).text,
    ).toContain(FACT);
  });

  it('needs exactly one of query and entryId, and a query with words', async () => {
    const session = await openSession(memoryStore(), 's');
    const { search } = tools(session);
    expect((await search({})).error).toMatch(/either query .* or entryId/);
    expect((await search({ query: 'a', entryId: 'b' })).error).toMatch(/either query/);
    expect((await search({ query: '*** "" ' })).error).toMatch(/has no word/);
    expect((await search({ entryId: 'nope' })).error).toBe('no entry nope in this session');
    expect((await search({ query: 'x', limit: 500 })).error).toMatch(/bad input: limit/);
  });
});

describe.each(STORE_KINDS)('history_search on the %s store', (kind) => {
  it("answers with the store's own search: its query syntax, ranking and snippets, in this session only", async () => {
    const { store, dispose } = makeStore(kind);
    try {
      const texts = [
        'Déployer le Service de facturation',
        'service deploy failed',
        'the failed deploy of billing',
      ];
      const sessions = [await openSession(store, 's'), await openSession(store, 'other')];
      for (const session of sessions)
        for (const text of texts) await session.append({ role: 'user', parts: [{ type: 'text', text }] });
      const { search } = tools(sessions[0]!);
      type Hit = { entryId: string; seq: number; snippet: string };
      const hits = async (query: string) => ((await search({ query })).hits as Hit[]).map((h) => h.seq);
      expect((await hits('deploy failed')).sort()).toEqual([1, 2]);
      expect(await hits('"failed deploy"')).toEqual([2]);
      expect(await hits('DEPLOYER')).toEqual([0]);
      expect((await hits('deploy*')).sort()).toEqual([0, 1, 2]);
      expect(await hits('zebra')).toEqual([]);
      for (const query of ['deploy failed', 'deploy*', 'factur*', 'service']) {
        const own = await store.search(query, { sessionId: 's', limit: 10 });
        const found = (await search({ query })).hits as Hit[];
        expect(
          found.map(({ entryId, seq, snippet }) => ({ entryId, seq, snippet })),
          query,
        ).toEqual(own.map(({ entryId, seq, snippet }) => ({ entryId, seq, snippet })));
      }
      expect(((await search({ query: '"failed deploy"' })).hits as Hit[])[0]!.snippet).toBe(
        'the «failed deploy» of billing',
      );
      expect((await search({ query: ' -- ' })).error).toMatch(/has no words to look for/);
    } finally {
      await store.close();
      dispose();
    }
  });
});

describe('plain specs', () => {
  it('carry a JSON schema for frameworks other than the AI SDK', async () => {
    const session = await openSession(memoryStore(), 's');
    const { specs } = tools(session);
    expect(specs.map((s) => s.name)).toEqual(['session_archive_read', 'history_search']);
    expect(specs[0]!.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        file: { type: 'string' },
        from: { type: 'integer', minimum: 0 },
        to: { type: 'integer' },
      },
    });
    expect(specs[1]!.inputSchema).toMatchObject({
      properties: { query: { type: 'string' }, limit: { maximum: 50 } },
    });
    for (const spec of specs) expect(spec.description.length).toBeGreaterThan(80);
  });
});
