/**
 * The HTML report of a generated 100,000-entry session (condense pruned and compacted it as an
 * agent ran) in SQLite: how long `report()` takes (and how much of it is reading the log), the
 * file's size, and, where Debian's chromium is installed, how long the page takes to be drawn.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { report } from '../src/report/index.js';
import { sqliteStore } from '../src/store/sqlite.js';
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
  /** Chromium: navigation until the page has inflated its data and drawn; NaN without chromium. */
  pageLoadMillis: number;
}

const CHROMIUM = '/usr/bin/chromium';

export async function htmlReportBench(dir: string, size: number): Promise<HtmlReportRow[]> {
  // Made in SQLite, the default store, so the log (about 4.5 KB per entry) stays out of the heap.
  const store = sqliteStore({ path: join(dir, 'report.db') });
  try {
    await writeBigSession(store, { id: 'big', entries: size });
    const record = (await store.getSession('big'))!;
    // Read as report() reads it: a page of 2,000 entries at a time.
    const t0 = performance.now();
    let compactions = 0;
    for (let from = 0; from < record.nextSeq; from += 2_000)
      compactions += (await store.loadFrom('big', from, from + 2_000)).filter(
        (e) => e.kind === 'compaction',
      ).length;
    const readMillis = performance.now() - t0;
    const t1 = performance.now();
    const html = await report(store, 'big', BIG_SESSION_OPTIONS);
    const totalMillis = performance.now() - t1;
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    return [
      {
        store: 'sqlite',
        entries: record.state.entryCount,
        requests: Number(/data-requests="(\d+)"/.exec(html)?.[1]),
        compactions,
        readMillis,
        totalMillis,
        megabytes: Buffer.byteLength(html) / 1e6,
        pageLoadMillis: await pageLoad(dir, file),
      },
    ];
  } finally {
    await store.close();
  }
}

/** Wall time from navigation until the page is drawn (its script marks body data-ready). */
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
    await page.waitForSelector('body[data-ready]');
    return performance.now() - t0;
  } finally {
    await context.close();
  }
}

export function htmlReportTable(rows: HtmlReportRow[]): string {
  const s = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(1)} s`);
  const lines = [
    '| HTML report (`condense report`) | store | requests | compactions | `report()` | of which reading the log | file | page drawn (chromium) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.entries.toLocaleString('en-US')} entries | ${r.store} | ${r.requests.toLocaleString('en-US')} | ${r.compactions} | ${s(r.totalMillis)} | ${s(r.readMillis)} | ${r.megabytes.toFixed(1)} MB | ${s(r.pageLoadMillis)} |`,
    );
  return lines.join('\n');
}
