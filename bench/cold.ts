/** Cold-open rows: each measured in a child process (bench/cold-child.ts) so its peak RSS is its own. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteStore } from '../src/store/sqlite.js';
import { fillStore } from './fill.js';

export interface ColdRow {
  name: string;
  store: 'sqlite';
  size: number;
  /** Open + first prepare(), which compacts the never-compacted window. */
  openMillis: number;
  rowsRead: number;
  openPeakMB: number;
  turns: number;
  turnMedianMicros: number;
  /** Peak RSS of the whole child: open, first prepare and every turn. */
  peakMB: number;
  error?: string;
}

const child = fileURLToPath(new URL('./cold-child.ts', import.meta.url));

export async function coldOpen(dir: string, size: number, turns: number): Promise<ColdRow> {
  const path = join(dir, `cold-${size}.db`);
  const store = sqliteStore({ path });
  await fillStore(store, 's', size);
  await store.close();
  const name = 'cold open + first prepare() of a never-compacted session';
  const node = [process.execPath, '--import', 'tsx', child, path, 's', String(turns)];
  // GNU time reports the peak RSS even of a child that dies (out of memory, stack overflow).
  const timed = existsSync(TIME) ? [TIME, '-f', 'maxrss_kb=%M', ...node] : node;
  const t0 = performance.now();
  try {
    const out = execFileSync(timed[0]!, timed.slice(1), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1 << 20,
    });
    return { name, store: 'sqlite', size, ...JSON.parse(out.trim().split('\n').at(-1)!) };
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? error);
    const reason = /RangeError[^\n]*|FATAL ERROR[^\n]*|heap out of memory/.exec(stderr)?.[0] ?? 'failed';
    const rss = /maxrss_kb=(\d+)/.exec(stderr)?.[1];
    const peakMB = rss === undefined ? Number.NaN : Math.round(Number(rss) / 1024);
    return {
      name,
      store: 'sqlite',
      size,
      openMillis: Math.round(performance.now() - t0),
      rowsRead: Number.NaN,
      openPeakMB: peakMB,
      turns,
      turnMedianMicros: Number.NaN,
      peakMB,
      error: reason,
    };
  }
}

const TIME = '/usr/bin/time';
