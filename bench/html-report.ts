/**
 * The HTML report of a generated 100,000-entry session (condense pruned and compacted it as an
 * agent ran): how long `report()` takes on each store (and how much of it is reading the log), the
 * file's size, and, where Debian's chromium is installed, how long the page takes to load.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { report } from '../src/report/index.js';
import { memoryStore } from '../src/store/memory.js';
import { sqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { BIG_SESSION_OPTIONS, writeBigSession } from '../test/report/big-session.js';

export interface HtmlReportRow {
  store: string;
  entries: number;
  requests: number;
  compactions: number;
  /** Reading the log from the store a page at a time, as `report()` does (part of `totalMillis`). */
  readMillis: number;
  totalMillis: number;
  megabytes: number;
  /** Chromium: navigation to the load event, the page's script done; NaN without chromium. */
  pageLoadMillis: number;
}

const CHROMIUM = '/usr/bin/chromium';

export async function htmlReportBench(dir: string, size: number): Promise<HtmlReportRow[]> {
  const source = memoryStore();
  await writeBigSession(source, { id: 'big', entries: size });
  const record = (await source.getSession('big'))!;
  const log = await source.loadFrom('big', 0);
  const sqlite = sqliteStore({ path: join(dir, 'report.db') });
  // The same session copied whole into SQLite (one transaction), not driven again.
  await sqlite.createSession(
    { ...record, version: 0 },
    {
      entries: log,
      commit: {
        sessionId: 'big',
        expectedVersion: 0,
        headId: record.headId,
        nextSeq: record.nextSeq,
        state: record.state,
      },
    },
  );
  const rows: HtmlReportRow[] = [];
  for (const [name, store] of [
    ['memory', source],
    ['sqlite', sqlite],
  ] as [string, Store][]) {
    // Read as report() reads it: a page of 2,000 entries at a time.
    const t0 = performance.now();
    for (let from = 0; from < record.nextSeq; from += 2_000) await store.loadFrom('big', from, from + 2_000);
    const readMillis = performance.now() - t0;
    const t1 = performance.now();
    const html = await report(store, 'big', BIG_SESSION_OPTIONS);
    const totalMillis = performance.now() - t1;
    const file = join(dir, `report-${name}.html`);
    writeFileSync(file, html);
    rows.push({
      store: name,
      entries: log.length,
      requests: Number(/data-requests="(\d+)"/.exec(html)?.[1]),
      compactions: log.filter((e) => e.kind === 'compaction').length,
      readMillis,
      totalMillis,
      megabytes: Buffer.byteLength(html) / 1e6,
      pageLoadMillis: await pageLoad(dir, file),
    });
  }
  await sqlite.close();
  return rows;
}

/** Wall time from navigation to the load event (the inline script has run by then). */
async function pageLoad(dir: string, file: string): Promise<number> {
  if (!existsSync(CHROMIUM)) return Number.NaN;
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(mkdtempSync(join(dir, 'profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    return performance.now() - t0;
  } finally {
    await context.close();
  }
}

export function htmlReportTable(rows: HtmlReportRow[]): string {
  const s = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(1)} s`);
  const lines = [
    '| HTML report (`condense report`) | store | requests | compactions | `report()` | of which reading the log | file | page load (chromium) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.entries.toLocaleString('en-US')} entries | ${r.store} | ${r.requests.toLocaleString('en-US')} | ${r.compactions} | ${s(r.totalMillis)} | ${s(r.readMillis)} | ${r.megabytes.toFixed(1)} MB | ${s(r.pageLoadMillis)} |`,
    );
  return lines.join('\n');
}
