/**
 * The report's figures, checked against what condense itself computed or stored: the chart's
 * estimate for each unreported request is the figure the live session had just before sending it
 * (prunes and compactions included); each compaction's kept and summarized spans are the lineage's
 * coverage; the quote finder agrees with a plain indexOf; details render whatever fields they hold.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syntheticSession } from '../../src/demo/synthetic.js';
import type { Entry } from '../../src/model/entry.js';
import type { JsonObject } from '../../src/model/json.js';
import { detailLines, ranges } from '../../src/report/compactions.js';
import { reportData } from '../../src/report/data.js';
import { forkTree } from '../../src/report/family.js';
import { findQuotes, MIN_QUOTE_CHARS, quotePieces } from '../../src/report/quotes.js';
import { replayLog } from '../../src/report/replay.js';
import { reportOf } from '../../src/report/report.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { jsonlStore } from '../../src/store/jsonl.js';
import { memoryStore } from '../../src/store/memory.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';

const OPTIONS = {
  model: 'report-test',
  limits: { contextWindow: 150_000, maxOutput: 2_000 },
  system: 'You are a coding agent.',
} satisfies SessionOptions;

/**
 * A session driven like an agent drives one, recording what the session itself said of each
 * request's prompt: the provider's count where one is reported, else its own estimate.
 */
const driven = new Map<number, ReturnType<typeof driveOnce>>();
/** Each size is driven once per file (a 1,500-message run takes a second or two). */
function drive(messages: number): ReturnType<typeof driveOnce> {
  const run = driven.get(messages) ?? driveOnce(messages);
  driven.set(messages, run);
  return run;
}

async function driveOnce(messages: number) {
  const store = memoryStore();
  let clock = Date.UTC(2026, 0, 1);
  const session = await openSession(store, 's', { ...OPTIONS, now: () => (clock += 1_000) });
  const expected: { tokens: number; reported: boolean }[] = [];
  let n = 0;
  for (const message of syntheticSession({ messages, seed: 3 })) {
    if (message.role !== 'assistant') {
      await session.append(message);
      continue;
    }
    await session.prepare();
    n++;
    if (n % 3 === 0) {
      expected.push({ tokens: session.estimate().tokens, reported: false });
      await session.recordStep({ message });
    } else {
      const inputTokens = Math.round((session.record.state.activeTokens + session.overheadRaw) * 1.3) + 700;
      expected.push({ tokens: inputTokens, reported: true });
      await session.recordStep({ message, usage: { inputTokens, outputTokens: 20 } });
    }
  }
  return { store, session, log: await session.history(), expected };
}

describe('the prompt size of every request', () => {
  it('is the reported usage where kept, else the estimate the session had then, across prunes and compactions', async () => {
    const { session, log, expected } = await drive(1_500);
    expect(log.some((e) => e.kind === 'compaction')).toBe(true);
    expect(
      log.some(
        (e) => e.kind === 'message' && e.message.parts.some((p) => p.type === 'tool' && p.compactedAt),
      ),
    ).toBe(true);
    const { series } = replayLog(log, {
      model: session.config.model,
      overheadRaw: session.overheadRaw,
      estimator: session.config.estimator,
    });
    expect(series.tokens.map((tokens, i) => ({ tokens, reported: series.reported[i] }))).toEqual(expected);
    expect(series.compactions).toHaveLength(log.filter((e) => e.kind === 'compaction').length);
    expect(series.prunes.length).toBeGreaterThan(0);
    expect(series.prunes.every((p) => p.parts > 0 && p.saved > 0)).toBe(true);
  });
});

describe('what each compaction kept and summarized', () => {
  it('is the lineage coverage, turn for turn', async () => {
    const { session, log } = await drive(1_500);
    const lineage = await session.lineage();
    const { compactions: views, turns } = replayLog(log, {
      model: session.config.model,
      overheadRaw: session.overheadRaw,
      estimator: session.config.estimator,
    });
    const turnIndex = new Map(lineage.turns().map((t, i) => [t.id, i]));
    const expand = (r: [number, number][]) =>
      r.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
    expect(views.length).toBeGreaterThan(1);
    expect(turns.map((r) => r.id)).toEqual(lineage.turns().map((t) => t.id));
    for (const view of views) {
      const coverage = lineage.getCoverage(view.id);
      expect(view.summarized.entries).toBe(coverage.summarizedEntryIds.length);
      expect(view.kept.entries).toBe(coverage.keptEntryIds.length);
      expect(expand(view.summarized.turns)).toEqual(coverage.summarizedTurns.map((t) => turnIndex.get(t.id)));
      expect(expand(view.kept.turns)).toEqual(coverage.keptTurns.map((t) => turnIndex.get(t.id)));
      // The extractive summary quotes the user's requests verbatim: some of its lines are found.
      expect(view.quotes.length).toBeGreaterThan(0);
      for (const q of view.quotes) if (q.seq !== null) expect(log.find((e) => e.seq === q.seq)).toBeDefined();
    }
  });

  it('lists the pivot details whatever fields they hold, nested ones as a.b', () => {
    expect(
      detailLines({
        filesRead: ['a.ts', 'b.ts'],
        filesModified: [],
        lastUserRequest: 'fix it',
        extra: { handover: { nextStep: 'run the tests', keyValues: [{ port: 8080 }] }, empty: {} },
      }),
    ).toEqual([
      ['filesRead', ['a.ts', 'b.ts']],
      ['filesModified', []],
      ['lastUserRequest', ['fix it']],
      ['extra.handover.nextStep', ['run the tests']],
      ['extra.handover.keyValues', ['{"port":8080}']],
      ['extra.empty', []],
    ]);
  });

  it('compresses turn lists into runs', () => {
    expect(ranges([9, 3, 4, 5, 4])).toEqual([
      [3, 5],
      [9, 9],
    ]);
    expect(ranges([])).toEqual([]);
  });
});

describe('quotes', () => {
  it('finds exactly what indexOf finds, in the first text holding it', () => {
    const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'x', '—', 'ü', '\n', ' ');
    const text = fc.array(word, { maxLength: 80 }).map((w) => w.join(''));
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 6 }),
        fc.array(text, { maxLength: 8 }),
        (texts, extra) => {
          // Pieces: slices of the texts (found) and of other texts (mostly not).
          const pieces = [...texts, ...extra]
            .flatMap((t) => [t, t.slice(3), t.slice(0, -2)])
            .filter((p) => p.length >= MIN_QUOTE_CHARS);
          const unique = [...new Set(pieces)].sort((a, b) => b.length - a.length);
          const found = findQuotes(unique, texts);
          const naive = unique.flatMap((p) => {
            const source = texts.findIndex((t) => t.includes(p));
            return source < 0 ? [] : [{ text: p, source }];
          });
          const kept = naive.filter((q, i) => !naive.slice(0, i).some((f) => f.text.includes(q.text)));
          expect(found).toEqual(kept);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes lines, labelled values, quoted strings and the parts around an ellipsis', () => {
    const pieces = quotePieces(
      '- 1. The login endpoint returns 500 when the password is empty.\nLast request: "Run the whole test suite and fix it" …and then stop here please now.\nshort',
    );
    expect(pieces).toContain('1. The login endpoint returns 500 when the password is empty.');
    expect(pieces).toContain('Run the whole test suite and fix it');
    expect(pieces).toContain('and then stop here please now.');
    expect(pieces).not.toContain('short');
  });
});

describe('what fills the window', () => {
  it('is the stats breakdown of the view: rows by kind that add up to the next prompt, outputs by tool', async () => {
    const { store, session } = await drive(1_500);
    const data = await reportOf(store, session.id, OPTIONS);
    const { fill } = data;
    expect(fill.total).toBe(data.next.tokens);
    expect(fill.rows.reduce((a, r) => a + r.tokens, 0)).toBe(fill.total);
    const active = session.activeEntries();
    expect(fill.rows.some((r) => r.key === 'summary')).toBe(active.some((e) => e.kind === 'compaction'));
    const tools = new Set<string>();
    for (const e of active)
      if (e.kind === 'message') for (const p of e.message.parts) if (p.type === 'tool') tools.add(p.name);
    const byTool = fill.rows.find((r) => r.key === 'tool-results')?.byTool ?? [];
    expect(byTool.map((t) => t.name).sort()).toEqual([...tools].sort());
    expect(fill.free).toBe(fill.contextWindow - fill.total);
  });
});

describe('forks', () => {
  const row = (id: string, forkedFrom?: object) => ({
    id,
    createdAt: 0,
    updatedAt: 0,
    entryCount: 3,
    totalTokens: 0,
    activeTokens: 0,
    metadata: (forkedFrom ? { forkedFrom } : {}) as JsonObject,
  });

  it('draws the whole family from its oldest ancestor, forks of forks included', () => {
    const sessions = [
      row('root'),
      row('a', { session: 'root', entryId: 'e1', mode: 'exact' }),
      row('b', { session: 'a', entryId: 'e7', mode: 'summary' }),
      row('other'),
    ];
    expect(forkTree(sessions, 'b')).toEqual({
      id: 'root',
      entries: 3,
      children: [
        {
          id: 'a',
          entries: 3,
          at: 'e1',
          mode: 'exact',
          children: [{ id: 'b', entries: 3, at: 'e7', mode: 'summary', children: [] }],
        },
      ],
    });
    expect(forkTree(sessions, 'other')).toEqual({ id: 'other', entries: 3, children: [] });
  });
});

describe('report data', () => {
  it('a real session with a fork and quoted events: the ledger and the tree say so', async () => {
    const { store, session } = await drive(300);
    await session.quoteEvents({
      channel: 'slack',
      externalId: 'm1',
      author: 'ana',
      at: 5,
      body: 'deploy is blocked',
    });
    await session.fork('s-fork');
    const data = await reportOf(store, 's', OPTIONS);
    expect(data.forks.children.map((c) => c.id)).toEqual(['s-fork']);
    const slack = data.ledger.channels.find((c) => c.channel === 'slack');
    expect(slack?.events[0]).toMatchObject({ author: 'ana', body: 'deploy is blocked' });
    expect(slack?.events[0]?.quotedAt).toBeTypeOf('number');
    expect(data.series.tokens.length).toBe(
      (await session.history()).filter((e) => e.kind === 'message' && e.message.role === 'assistant').length,
    );
  });

  it('a JSONL session is read through its own stream: its file once, not once per page', async () => {
    const inner = jsonlStore({ dir: mkdtempSync(join(tmpdir(), 'condense-report-')) });
    const session = await openSession(inner, 's', OPTIONS);
    for (const message of syntheticSession({ messages: 1_000, seed: 3 })) await session.append(message);
    const reads = { loadFrom: 0, loadPages: 0 };
    const store = new Proxy(inner, {
      get(target, key: keyof typeof reads) {
        const value = target[key];
        if (!(key in reads)) return value;
        return (...args: Parameters<typeof value>) => {
          reads[key]++;
          return (value as (...a: typeof args) => unknown).apply(target, args);
        };
      },
    });
    const data = await reportOf(store, 's', OPTIONS);
    expect(data.session.entries).toBe(1_000);
    // Opening reads the window once; the replay streams the log (at 250 a page: four more reads).
    expect(reads.loadPages).toBeGreaterThan(0);
    expect(reads.loadFrom).toBeLessThanOrEqual(1);
  });

  it('an empty log still makes a report', () => {
    const data = reportData({
      replayed: replayLog([] as Entry[], { model: 'm', overheadRaw: 0, estimator: heuristicEstimator() }),
      active: [],
      session: { id: 'x', model: 'm', store: 'memory', entries: 0, createdAt: 0, updatedAt: 0 },
      budget: { window: 1000, usable: 900, trigger: 800, windowFallback: false },
      next: { tokens: 0, basis: 'estimate' },
      estimate: { tokens: 0, method: 'calibrated', base: 0, delta: 0, ratio: 1 },
      overheadRaw: 0,
      systemTokens: 0,
      sessions: [],
      events: null,
      now: 0,
    });
    expect(data.series.tokens).toEqual([]);
    expect(data.compactions).toEqual([]);
    expect(data.ledger.available).toBe(false);
  });
});
