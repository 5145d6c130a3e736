/**
 * `report()` on every store and on every agent's imported transcript: the same session drawn from
 * memory, SQLite, JSONL and Postgres gives the same figures; each real Claude Code, Codex and
 * Gemini CLI transcript (and an OpenHands event stream) gives one chart point per reply, the
 * sizes its agent recorded, and the compactions it ran.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile } from '../../src/cli/cmd-import.js';
import { syntheticSession } from '../../src/demo/synthetic.js';
import type { CompactionEntry, Entry } from '../../src/model/entry.js';
import { reportedUsage } from '../../src/model/reported-usage.js';
import { postgresStore } from '../../src/postgres.js';
import type { ReportData } from '../../src/report/index.js';
import { report, reportOf } from '../../src/report/index.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { sqliteStore } from '../../src/sqlite.js';
import { jsonlStore } from '../../src/store/jsonl.js';
import { memoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/store.js';
import { DATA_DIR, HAS_DATA, NO_DATA } from '../cli/support.js';
import { metadata, modelResponse } from '../import/openhands-shapes.js';
import { dropSchema, PG_URL, pgReachable, testSchema } from '../store/pg-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'condense-report-src-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTIONS = {
  model: 'report-test',
  limits: { contextWindow: 40_000, maxOutput: 2_000 },
} satisfies SessionOptions;

/** A short agent run that prunes and compacts, then its report's figures. */
async function drive(store: Store): Promise<{ log: Entry[]; data: ReportData; html: string }> {
  let clock = Date.UTC(2026, 0, 1);
  const session = await openSession(store, 'run', { ...OPTIONS, now: () => (clock += 1_000) });
  let n = 0;
  for (const message of syntheticSession({ messages: 500, seed: 11 })) {
    if (message.role !== 'assistant') await session.append(message);
    else {
      await session.prepare();
      const sent = session.record.state.activeTokens + session.overheadRaw;
      const usage =
        ++n % 2 === 0 ? { inputTokens: Math.round(sent * 1.2) + 300, outputTokens: 5 } : undefined;
      await session.recordStep({ message, ...(usage ? { usage } : {}) });
    }
  }
  const log = await session.history();
  return { log, data: await reportOf(store, 'run', OPTIONS), html: await report(store, 'run', OPTIONS) };
}

const replies = (log: Entry[]) => log.filter((e) => e.kind === 'message' && e.message.role === 'assistant');
const pivots = (log: Entry[]) => log.filter((e): e is CompactionEntry => e.kind === 'compaction');

/** What every store's report must show of its run. */
function check({ log, data, html }: Awaited<ReturnType<typeof drive>>) {
  expect(pivots(log).length).toBeGreaterThan(0);
  expect(data.series.tokens).toHaveLength(replies(log).length);
  expect(html).toContain(`data-requests="${replies(log).length}"`);
  expect(data.compactions.map((c) => [c.tokensBefore, c.tokensAfter])).toEqual(
    pivots(log).map((p) => [p.pivot.tokensBefore, p.pivot.tokensAfter]),
  );
  expect((html.match(/<tr class="compaction"/g) ?? []).length).toBe(pivots(log).length);
  // Every second reply reported its size: those points are the reported figures.
  const reported = data.series.tokens.filter((_, i) => data.basis[i] === '1');
  expect(reported).toEqual(
    replies(log)
      .flatMap((e) => (e.kind === 'message' ? [reportedUsage(e.message)?.inputTotal ?? []] : []))
      .flat(),
  );
  return data;
}

describe('every store', () => {
  const figures: Record<string, unknown> = {};
  const comparable = (d: ReportData) => ({
    series: d.series.tokens,
    basis: d.basis,
    compactions: d.compactions.map((c) => [
      c.tokensBefore,
      c.tokensAfter,
      c.summarized.entries,
      c.kept.entries,
    ]),
  });

  it('memory', async () => {
    figures.memory = comparable(check(await drive(memoryStore())));
  });

  it('SQLite', async () => {
    const store = sqliteStore({ path: join(dir, 'r.db') });
    try {
      figures.sqlite = comparable(check(await drive(store)));
    } finally {
      await store.close();
    }
    expect(figures.sqlite).toEqual(figures.memory);
  });

  it('JSONL (no events ledger: the report says so)', async () => {
    const store = jsonlStore({ dir: join(dir, 'jsonl') });
    try {
      const run = await drive(store);
      figures.jsonl = comparable(check(run));
      expect(run.data.ledger.available).toBe(false);
      expect(run.html).toContain('This store keeps no events ledger.');
    } finally {
      await store.close();
    }
    expect(figures.jsonl).toEqual(figures.memory);
  });

  it('Postgres', async (ctx) => {
    if (!(await pgReachable())) return ctx.skip();
    const schema = testSchema();
    const store = postgresStore({ connectionString: PG_URL, schema });
    try {
      figures.postgres = comparable(check(await drive(store)));
    } finally {
      await store.close();
      const pool = new pg.Pool({ connectionString: PG_URL });
      await dropSchema(pool, schema);
      await pool.end();
    }
    expect(figures.postgres).toEqual(figures.memory);
  });
});

const AGENTS = ['claude-code', 'codex', 'gemini-cli'];
const transcripts = HAS_DATA
  ? AGENTS.flatMap((agent) =>
      readdirSync(join(DATA_DIR, 'agent-sessions', agent))
        .filter((f) => /\.jsonl?$/.test(f))
        .map((f) => [agent, join(DATA_DIR, 'agent-sessions', agent, f)] as const),
    )
  : [];

/** Imports a file into a fresh memory store and reports on it. */
async function imported(file: string) {
  const store = memoryStore();
  const [first] = await importFile(store, file, { session: 'imported' });
  expect(first?.session).toBe('imported');
  const log = await store.loadFrom('imported', 0);
  return { log, data: await reportOf(store, 'imported'), html: await report(store, 'imported') };
}

describe.skipIf(!HAS_DATA)('imported transcripts', () => {
  if (!HAS_DATA) console.warn(NO_DATA);

  it.each(transcripts)(
    '%s %s: a point per reply, the sizes the agent recorded, its compactions',
    async (_agent, file) => {
      const { log, data, html } = await imported(file);
      expect(data.series.tokens).toHaveLength(replies(log).length);
      const recorded = replies(log).flatMap((e) =>
        e.kind === 'message' ? [reportedUsage(e.message)?.inputTotal] : [],
      );
      // One Codex rollout records no token counts: every point of it is an estimate.
      expect(data.reported).toBe(recorded.filter((r) => r !== undefined).length);
      data.series.tokens.forEach((t, i) => {
        if (data.basis[i] === '1') expect(t).toBe(recorded[i]);
        else expect(recorded[i]).toBeUndefined();
      });
      expect(data.compactions.map((c) => c.summarizer)).toEqual(pivots(log).map((p) => p.pivot.summarizer));
      expect(html).toContain(`data-requests="${replies(log).length}"`);
    },
  );
});

describe('an OpenHands event stream', () => {
  it('is reported like any other agent: its reply, the size its model reported', async () => {
    const response = modelResponse('chatcmpl-1', 'Let me look.', [['c1', 'execute_bash', { command: 'ls' }]]);
    const meta = metadata('c1', 'execute_bash', response);
    const at = (s: number) => `2025-03-01T10:00:0${s}.000000`;
    const events = [
      {
        id: 0,
        timestamp: at(0),
        source: 'agent',
        message: 'sys',
        action: 'system',
        args: { content: 'You are OpenHands agent.', tools: [] },
      },
      {
        id: 1,
        timestamp: at(1),
        source: 'user',
        message: 'Fix the test',
        action: 'message',
        args: { content: 'Fix the test', image_urls: null, wait_for_response: false },
      },
      {
        id: 2,
        timestamp: at(2),
        source: 'agent',
        message: 'Running command: ls',
        action: 'run',
        tool_call_metadata: meta,
        args: { command: 'ls', is_input: false, thought: '', blocking: false },
      },
      {
        id: 3,
        timestamp: at(3),
        source: 'agent',
        message: 'ran',
        cause: 2,
        observation: 'run',
        tool_call_metadata: meta,
        content: 'src\ntests',
        extras: { command: 'ls', metadata: { exit_code: 0 } },
        success: true,
      },
    ];
    const file = join(dir, 'trajectory.json');
    writeFileSync(file, JSON.stringify(events));
    const { log, data } = await imported(file);
    expect(data.series.tokens).toEqual([5200]);
    expect(data.basis).toBe('1');
    expect(replies(log)).toHaveLength(1);
    const outputs = data.fill.rows.find((r) => r.key === 'tool-results')?.byTool ?? [];
    expect(outputs.find((t) => t.name === 'execute_bash')?.tokens).toBeGreaterThan(0);
  });
});
