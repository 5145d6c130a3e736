/**
 * The report opened in a real browser: Debian's chromium driven by playwright-core (the project's
 * scripts/install-chromium.sh installs it; nothing downloads a browser). Two reports: a real Claude
 * Code session imported through the CLI (one compaction Claude Code ran, every request's usage
 * reported), and a generated 30,000-entry session that condense itself pruned and compacted. Each
 * page must load without a console error, draw one chart point per request, list every
 * compaction with its before/after figures, and show a compaction's summary and its kept and
 * summarized turns when it is clicked. Screenshots go to test-output/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompactionEntry, Entry } from '../../src/model/entry.js';
import { report } from '../../src/report/index.js';
import { sqliteStore } from '../../src/sqlite.js';
import { cliAsync, DATA_DIR, HAS_DATA, NO_DATA, ok, ROOT } from '../cli/support.js';
import { BIG_SESSION_OPTIONS, writeBigSession } from './big-session.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const CI = process.env.CI === 'true' || process.env.CI === '1';
// CI installs chromium first (.ci/run): there a missing browser is a failure, not a skip.
if (!HAS_CHROMIUM && CI) throw new Error(`CI=true and no ${CHROMIUM}: run scripts/install-chromium.sh`);
if (!HAS_CHROMIUM)
  console.warn(`no ${CHROMIUM} (scripts/install-chromium.sh installs it): browser tests skipped`);

const OUTPUT = join(ROOT, 'test-output');
const work = mkdtempSync(join(tmpdir(), 'condense-report-'));
let context: BrowserContext;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  mkdirSync(OUTPUT, { recursive: true });
  context = await chromium.launchPersistentContext(mkdtempSync(join(work, 'profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await context?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  errors: string[];
}

/** Opens a report file; console errors, page errors and any request leaving the file are collected. */
async function open(file: string): Promise<Opened> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith('file://')) errors.push(`network request: ${r.url()}`);
  });
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  // The page inflates its data, then draws: it marks body when done.
  await page.waitForSelector('body[data-ready]');
  return { page, errors };
}

/** The number of vertices of the chart's polyline: one per request. */
async function chartPoints(page: Page): Promise<number> {
  const points = await page.getAttribute('#series', 'points');
  return points === null || points.trim() === '' ? 0 : points.trim().split(/\s+/).length;
}

/** The compaction table's rows as [before, after] numbers. */
async function compactionRows(page: Page): Promise<[number, number][]> {
  const rows = await page.$$eval('tr.compaction', (trs) =>
    trs.map((tr) => [
      tr.querySelector('.before')?.textContent ?? '',
      tr.querySelector('.after')?.textContent ?? '',
    ]),
  );
  return rows.map(([b, a]) => [Number(b!.replace(/,/g, '')), Number(a!.replace(/,/g, ''))]);
}

/** Clicks compaction k's row and checks what the detail shows against the stored pivot. */
async function checkCompactionClick(page: Page, k: number, pivot: CompactionEntry, turnsSummarized: number) {
  await page.click(`tr.compaction[data-k="${k}"]`);
  await page.waitForSelector('#compaction-detail:not([hidden])');
  expect(await page.textContent('#compaction-title')).toContain(`Compaction ${k + 1}`);
  expect(await page.textContent('#summary-text')).toBe(pivot.pivot.summary);
  const summarized = await page.$$('#summarized-turns li:not(.more)');
  expect(summarized.length).toBe(Math.min(100, turnsSummarized));
  expect(await page.$$('#kept-turns li')).not.toHaveLength(0);
  // A summarized turn's link leads into the turn list, at that turn.
  const link = await page.$('#summarized-turns a[data-turn]');
  const turn = Number(await link!.getAttribute('data-turn'));
  await link!.click();
  expect(await page.getAttribute(`#turn-${turn + 1}`, 'class')).toContain('highlight');
}

/** What the tests read of the page's data. */
interface Report {
  series: { tokens: number[] };
  basis: string;
  compactions: { summarized: { turns: [number, number][] } }[];
}

const compactionsOf = (log: Entry[]) => log.filter((e): e is CompactionEntry => e.kind === 'compaction');
const requestsOf = (log: Entry[]) =>
  log.filter(
    (e) => e.kind === 'message' && e.message.role === 'assistant' && e.message.metadata?.summary !== true,
  );

const CLAUDE_FILE = join(DATA_DIR, 'agent-sessions', 'claude-code', 'session-624a4a58.jsonl');

/** Each request's prompt as Claude Code's file records it (lines of one response share an id). */
function claudePrompts(file: string): number[] {
  const byId = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const l = JSON.parse(line) as {
      type?: string;
      isSidechain?: boolean;
      message?: { id?: string; usage?: Record<string, number> };
    };
    const u = l.message?.usage;
    if (l.type !== 'assistant' || l.isSidechain || !u || !l.message?.id) continue;
    const prompt =
      (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    if (prompt > 0) byId.set(l.message.id, prompt);
  }
  return [...byId.values()];
}

describe.skipIf(!HAS_CHROMIUM)('the report in chromium', () => {
  it.skipIf(!HAS_DATA)(
    'a real Claude Code session, imported: its reported prompts, its compaction, its summary',
    async () => {
      if (!HAS_DATA) console.warn(NO_DATA);
      const db = join(work, 'claude.db');
      const file = join(work, 'claude.html');
      ok(await cliAsync(['import', CLAUDE_FILE, '--session', 'cc', '--db', db]));
      ok(await cliAsync(['report', 'cc', '--db', db, '--out', file], 60_000));
      const store = sqliteStore({ path: db });
      const log = await store.loadFrom('cc', 0);
      await store.close();
      const pivots = compactionsOf(log);
      expect(pivots).toHaveLength(1);

      const { page, errors } = await open(file);
      expect(await chartPoints(page)).toBe(requestsOf(log).length);
      expect(await page.getAttribute('#chart', 'data-requests')).toBe(String(requestsOf(log).length));
      // The reported points are, in order, the prompts the file recorded.
      const reported = await page.evaluate(() => {
        const d = (window as unknown as { condenseReport: Report }).condenseReport;
        return (d.series.tokens as number[]).filter((_, i) => d.basis[i] === '1');
      });
      expect(reported).toEqual(claudePrompts(CLAUDE_FILE));
      expect(await compactionRows(page)).toEqual(
        pivots.map((p) => [p.pivot.tokensBefore, p.pivot.tokensAfter]),
      );
      const summarizedTurns = await page.evaluate(() => {
        const d = (window as unknown as { condenseReport: Report }).condenseReport;
        return d.compactions[0]!.summarized.turns.reduce((a, [x, y]) => a + y - x + 1, 0);
      });
      expect(summarizedTurns).toBeGreaterThan(0);
      await page.click('tr.compaction[data-k="0"]');
      await page.waitForSelector('#compaction-detail:not([hidden])');
      expect(await page.textContent('#summary-text')).toBe(pivots[0]!.pivot.summary);
      // Claude Code keeps nothing verbatim: the kept list says so, the summarized one lists turns.
      expect(await page.textContent('#kept-turns')).toBe('none');
      expect(await page.$$('#summarized-turns li')).toHaveLength(summarizedTurns);
      expect(await page.$$('#compaction-detail blockquote.quote')).not.toHaveLength(0);
      await page.screenshot({ path: join(OUTPUT, 'report-claude-code.png'), fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  it('a generated 30,000-entry session (SQLite) in a 60k window: a few MB, every request and compaction, clickable', async () => {
    // As many compactions as 100,000 entries make in a 200k window, in a third of the time (the
    // 100,000-entry page itself is measured by `npm run bench -- --report`).
    const options = {
      ...BIG_SESSION_OPTIONS,
      limits: { ...BIG_SESSION_OPTIONS.limits, contextWindow: 60_000 },
    };
    // SQLite, the default store: the log (about 135 MB of content) stays out of the test's heap.
    const store = sqliteStore({ path: join(work, 'big.db') });
    await writeBigSession(store, { id: 'big', entries: 30_000, options });
    // What the page must show, read a page at a time.
    const record = (await store.getSession('big'))!;
    const pivots: CompactionEntry[] = [];
    let requests = 0;
    for (let from = 0; from < record.nextSeq; from += 5_000) {
      const page = await store.loadFrom('big', from, from + 5_000);
      pivots.push(...compactionsOf(page));
      requests += requestsOf(page).length;
    }
    expect(record.state.entryCount).toBeGreaterThanOrEqual(30_000);
    const html = await report(store, 'big', options);
    await store.close();
    const file = join(work, 'big.html');
    writeFileSync(file, html);
    expect(statSync(file).size).toBeLessThan(5_000_000);
    expect(pivots.length).toBeGreaterThan(10);

    const { page, errors } = await open(file);
    expect(await chartPoints(page)).toBe(requests);
    expect(await page.$$('#chart .compaction-mark')).toHaveLength(pivots.length);
    expect(await page.$$('#chart .prune-mark')).not.toHaveLength(0);
    expect(await compactionRows(page)).toEqual(
      pivots.map((p) => [p.pivot.tokensBefore, p.pivot.tokensAfter]),
    );
    const turns = await page.evaluate(() => {
      const d = (window as unknown as { condenseReport: Report }).condenseReport;
      return (d.compactions as { summarized: { turns: [number, number][] } }[]).map((c) =>
        c.summarized.turns.reduce((a, [x, y]) => a + y - x + 1, 0),
      );
    });
    await page.screenshot({ path: join(OUTPUT, 'report-100k.png') });
    for (const k of [0, pivots.length - 1]) await checkCompactionClick(page, k, pivots[k]!, turns[k]!);
    // A click on a compaction's mark in the chart opens it too (the last, drawn over any
    // neighbour it touches).
    const last = pivots.length - 1;
    await page.click(`#chart .compaction-mark[data-k="${last}"] .hit`, { force: true });
    expect(await page.textContent('#compaction-title')).toContain(`Compaction ${last + 1} `);
    expect(errors).toEqual([]);
    await page.close();
  }, 600_000);
});
