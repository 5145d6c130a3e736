import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import * as aiSdk from '../../src/ai-sdk.js';
import * as root from '../../src/index.js';
import {
  type CompactionOutcome,
  extractiveSummarizer,
  type OpenAIChatMessage,
  openSession,
  type Prepared,
  type SessionEvents,
  type SessionOptions,
  type StepResult,
  type UserMessage,
  validate,
} from '../../src/index.js';
import * as jsonl from '../../src/jsonl.js';
import * as pgBoss from '../../src/pg-boss.js';
import * as postgres from '../../src/postgres.js';
import * as sqlite from '../../src/sqlite.js';

const ROOT = new URL('../../', import.meta.url);

/**
 * Every runtime name each entry point exports. A name added to or dropped from the public API
 * must be added or dropped here too, so the change is deliberate.
 */
const PUBLIC = {
  '.': [
    'CONFIG_FILE_NAMES',
    'CompactionError',
    'ConfigError',
    'CorruptRowError',
    'DuplicateEntryError',
    'DuplicateEventError',
    'DuplicateSessionError',
    'EmptyContextError',
    'FloorTooLargeError',
    'InputError',
    'NoProgressError',
    'NotACompactionError',
    'PRESET_INPUTS',
    'PRESET_NAMES',
    'RequestTooLargeError',
    'Session',
    'SessionLockedError',
    'StoreClosedError',
    'StoreConnectionError',
    'StoreWriteError',
    'SummaryRejectedError',
    'UnknownSessionError',
    'UnknownTurnError',
    'VersionConflictError',
    'WindowNotHeldError',
    'extractiveSummarizer',
    'inProcessQueue',
    'isContextOverflowError',
    'llmSummarizer',
    'loadConfig',
    'lookupModel',
    'modelPrices',
    'memoryStore',
    'mergeOptions',
    'normalizeUsage',
    'openSession',
    'presetOptions',
    'recallToolSpecs',
    'registerModel',
    'report',
    'validate',
  ],
  './sqlite': ['DEFAULT_SQLITE_PATH', 'sqliteStore'],
  './jsonl': ['DEFAULT_JSONL_DIR', 'jsonlStore'],
  './postgres': ['DEFAULT_PG_SCHEMA', 'migratePostgres', 'postgresStore'],
  './ai-sdk': ['condenseMiddleware', 'fromAiSdkResponse', 'recallTools', 'stepHooks'],
  './pg-boss': ['pgBossQueue'],
};

describe('public API', () => {
  it.each([
    ['.', root],
    ['./sqlite', sqlite],
    ['./jsonl', jsonl],
    ['./postgres', postgres],
    ['./ai-sdk', aiSdk],
    ['./pg-boss', pgBoss],
  ] as const)('entry %s exports exactly the pinned names', (entry, module) => {
    expect(Object.keys(module).sort()).toEqual([...PUBLIC[entry]].sort());
  });

  it("package.json maps each entry to its source file's build output, types first", () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
    const source = {
      '.': 'index',
      './sqlite': 'sqlite',
      './jsonl': 'jsonl',
      './postgres': 'postgres',
      './ai-sdk': 'ai-sdk',
      './pg-boss': 'pg-boss',
    };
    for (const [entry, file] of Object.entries(source)) {
      // Key order matters: TypeScript and Node take the first condition that matches.
      expect(pkg.exports[entry], entry).toEqual({
        types: `./dist/${file}.d.ts`,
        import: `./dist/${file}.js`,
      });
      expect(Object.keys(pkg.exports[entry])[0]).toBe('types');
    }
    expect(Object.keys(pkg.exports).sort()).toEqual([
      '.',
      './ai-sdk',
      './jsonl',
      './package.json',
      './pg-boss',
      './postgres',
      './sqlite',
    ]);
  });

  it('a turn can be run and checked with root and subpath exports only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'condense-public-'));
    const options: SessionOptions = { model: 'gpt-4o', compaction: { summarizer: extractiveSummarizer() } };
    const store = sqlite.sqliteStore({ path: join(dir, 'c.db') });
    const session = await openSession(store, 'chat', options);
    const compactions: Array<SessionEvents['compaction:end']> = [];
    session.on('compaction:end', (e) => compactions.push(e));
    const ask: UserMessage = { role: 'user', parts: [{ type: 'text', text: 'List the files' }] };
    await session.append(ask);
    const response: ModelMessage[] = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: {} }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'ls', output: { type: 'text', value: 'a.ts' } },
        ],
      },
    ];
    const step: StepResult = await session.recordStep({
      message: aiSdk.fromAiSdkResponse(response),
      usage: { prompt_tokens: 40, completion_tokens: 5 },
    });
    expect(step.usage?.inputTotal).toBe(40);
    const prepared: Prepared<'openai'> = await session.prepare({ format: 'openai' });
    const payload: OpenAIChatMessage[] = prepared.messages;
    expect(payload.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(validate(payload, 'openai')).toEqual([]);
    const outcome: CompactionOutcome = await session.compact();
    expect(outcome.status).toBe('skipped');
    expect(compactions).toEqual([]);
    await store.close();
    // Read back through another connection: the session was really written.
    const reader = sqlite.sqliteStore({ path: join(dir, 'c.db'), readonly: true });
    expect((await reader.listSessions()).map((s) => [s.id, s.entryCount])).toEqual([['chat', 2]]);
    await reader.close();
  });
});
