/**
 * Odd text, one rule on every store and path (model/text.ts). A NUL in a session id used to give a
 * raw Postgres error while memory and SQLite stored it; lone surrogates (half a UTF-16 pair) were
 * stored and sent to providers. Now a session id that is empty or holds a control character or a
 * lone surrogate is refused with an InputError naming it, on every store; in messages a lone
 * surrogate is replaced by U+FFFD, reported as a warning, on append, recordStep, tool results,
 * the middleware and the CLI import.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { loneSurrogates } from '../../src/model/text.js';
import { postgresStore } from '../../src/postgres.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { jsonlStore } from '../../src/store/jsonl.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { cli } from '../cli/support.js';
import { textReply, wrapped } from '../integrations/support.js';
import { sessionRecord } from './fixtures.js';
import { dropSchema, PG_URL, pgReachable, testSchema } from './pg-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'condense-odd-text-'));
const postgres = await pgReachable();
const schemas: string[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (schemas.length === 0) return;
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  for (const schema of schemas) await dropSchema(admin, schema);
  await admin.end();
});

const stores: [string, boolean, () => Store][] = [
  ['memory', true, () => memoryStore()],
  ['sqlite', true, () => sqliteStore({ path: join(dir, `${Math.random()}.db`) })],
  ['jsonl', true, () => jsonlStore({ dir: join(dir, `jsonl-${Math.random()}`), fsync: false })],
  [
    'postgres',
    postgres,
    () => {
      const schema = testSchema();
      schemas.push(schema);
      return postgresStore({ connectionString: PG_URL, schema });
    },
  ],
];

const BROKEN = 'a broken emoji \uD83D here, and a lone low \uDE00 too';
const FIXED = 'a broken emoji \uFFFD here, and a lone low \uFFFD too';

describe.each(stores)('odd text on the %s store', (_kind, available, makeStore) => {
  it.skipIf(!available)(
    'a session id with NUL, a control character or a lone surrogate is refused',
    async () => {
      const store = makeStore();
      try {
        for (const [id, why] of [
          ['chat\u0000one', 'holds the control character U+0000'],
          ['chat\u001b[2J', 'holds the control character U+001B'],
          ['chat\uD800', 'holds a lone surrogate (U+D800)'],
          ['  ', 'is empty'],
        ] as const) {
          const opened = await openSession(store, id).catch((e: unknown) => e);
          expect(opened).toBeInstanceOf(InputError);
          expect((opened as InputError).message).toContain(why);
          expect((opened as InputError).field).toBe('sessionId');
          const created = await store.createSession(sessionRecord(id)).catch((e: unknown) => e);
          expect(created).toBeInstanceOf(InputError);
        }
        expect(await store.listSessions()).toEqual([]);
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(!available)(
    'lone surrogates in messages are stored and sent as U+FFFD, and reported',
    async () => {
      const store = makeStore();
      try {
        const session = await openSession(store, 's');
        const warnings: string[] = [];
        session.on('warning', (w) => warnings.push(w.message));
        await session.append({ role: 'user', content: BROKEN });
        await session.recordStep({
          message: {
            role: 'assistant',
            parts: [
              { type: 'tool', callId: 'c1', name: 'read', input: { path: '\uD800.ts' }, state: 'pending' },
            ],
          },
        });
        await session.recordToolResult('c1', { output: BROKEN });
        expect(warnings).toEqual([
          expect.stringMatching(/^2 lone surrogate\(s\) .* replaced by U\+FFFD$/),
          expect.stringMatching(/^1 lone surrogate/),
          expect.stringMatching(/^2 lone surrogate/),
        ]);
        const stored = await store.loadFrom('s', 0);
        expect(loneSurrogates(stored)).toBe(0);
        expect(JSON.stringify(stored)).toContain(JSON.stringify(FIXED).slice(1, -1));
        for (const format of ['openai', 'anthropic', 'gemini', 'ai-sdk'] as const)
          expect(loneSurrogates((await session.prepare({ format })).messages)).toBe(0);
      } finally {
        await store.close();
      }
    },
  );
});

describe('odd text through the middleware and the CLI import', () => {
  it('the middleware stores and sends U+FFFD', async () => {
    const model = new MockLanguageModelV3({ doGenerate: textReply('ok') });
    const store = memoryStore();
    const { model: wrappedModel, warnings } = wrapped(model, store);
    await generateText({ model: wrappedModel, prompt: BROKEN });
    expect(loneSurrogates(model.doGenerateCalls[0]!.prompt)).toBe(0);
    expect(loneSurrogates(await store.loadFrom('chat', 0))).toBe(0);
    expect(warnings).toEqual([expect.stringMatching(/^2 lone surrogate/)]);
  });

  it('the CLI import stores U+FFFD and says how many it replaced', () => {
    const file = join(dir, 'chat.json');
    // JSON escapes: the file is valid UTF-8, the text it encodes is not.
    writeFileSync(
      file,
      '[{"role":"user","content":"half \\ud83d of it"},{"role":"assistant","content":"ok"}]',
    );
    const db = join(dir, 'import.db');
    const r = cli(['import', file, '--session', 'imported', '--db', db]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('note: 1 lone surrogates (text no UTF-8 can hold) replaced by U+FFFD');
    const exported = cli(['export', 'imported', '--db', db]);
    expect(exported.stdout).toContain('half \\ufffd of it'.replace('\\ufffd', '\uFFFD'));
    expect(cli(['import', file, '--session', 'bad\u0007id', '--db', db]).stderr).toMatch(
      /holds the control character U\+0007/,
    );
  });
});
