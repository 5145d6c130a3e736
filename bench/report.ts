/** Markdown tables in the README's style: one row per operation and store, one column per size. */
import type { ColdRow } from './cold.js';
import type { LoadRow } from './concurrency.js';
import type { CycleRow } from './paths.js';
import type { TurnRow } from './turns.js';

function micros(us: number): string {
  if (Number.isNaN(us)) return '—';
  if (us >= 10_000) return `${Math.round(us / 1000).toLocaleString('en-US')} ms`;
  if (us >= 999.5) return `${(us / 1000).toFixed(1)} ms`;
  return `${Math.round(us)} µs`;
}

export function turnTable(rows: TurnRow[], unit: string): string {
  const sizes = [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b);
  const keys = [...new Set(rows.map((r) => `${r.name}\u0000${r.store}`))];
  const lines = [
    `| operation | store | ${sizes.map((s) => `${s.toLocaleString('en-US')} ${unit}`).join(' | ')} |`,
    `| --- | --- | ${sizes.map(() => '---:').join(' | ')} |`,
  ];
  for (const key of keys) {
    const [name, store] = key.split('\u0000') as [string, string];
    const cells = sizes.map((size) => {
      const row = rows.find((r) => r.name === name && r.store === store && r.size === size);
      return row === undefined ? '—' : micros(row.medianMicros);
    });
    lines.push(`| ${name} | ${store === 'ai' ? '—' : store} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Postgres against SQLite, turn for turn (bench/turns.ts sideBySide): both medians and their ratio. */
export function sideTable(rows: TurnRow[]): string {
  const lines = [
    '| turn (SQLite and Postgres alternating) | msgs | sqlite | postgres | postgres / sqlite |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const pg of rows.filter((r) => r.store === 'postgres')) {
    const lite = rows.find((r) => r.store === 'sqlite' && r.name === pg.name && r.size === pg.size);
    if (lite === undefined) continue;
    const ratio = (pg.medianMicros / lite.medianMicros).toFixed(2);
    lines.push(
      `| ${pg.name} | ${pg.size.toLocaleString('en-US')} | ${micros(lite.medianMicros)} | ${micros(pg.medianMicros)} | ${ratio}x |`,
    );
  }
  return lines.join('\n');
}

export function coldTable(rows: ColdRow[]): string {
  const lines = [
    '| never-compacted session (sqlite) | open + first prepare() | rows read | peak RSS | then 100 turns: median turn | peak RSS, all |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    const rowsRead = Number.isNaN(r.rowsRead) ? '—' : r.rowsRead.toLocaleString('en-US');
    const open = r.error
      ? `${r.error} after ${(r.openMillis / 1000).toFixed(1)} s`
      : `${(r.openMillis / 1000).toFixed(1)} s`;
    const mb = (n: number) => (Number.isNaN(n) ? '—' : `${n} MB`);
    lines.push(
      `| ${r.size.toLocaleString('en-US')} entries | ${open} | ${rowsRead} | ${mb(r.openPeakMB)} | ${micros(r.turnMedianMicros)} | ${mb(r.peakMB)} |`,
    );
  }
  return lines.join('\n');
}

/** The many-workers load run: throughput and latency, then what the checks found. */
export function loadTable(rows: LoadRow[]): string {
  const ms = (n: number) => (n >= 10 ? `${Math.round(n)} ms` : `${n.toFixed(1)} ms`);
  const lines = [
    '| store | processes × appends | appends/s | p50 append | p99 append | lost | duplicated | out of order | errors to writers | pivots per overflow | overflows (raced) | compactions dropped | conflicts retried |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    const v = r.verdict;
    const perOverflow =
      v.pivotsPerOverflow[0] === v.pivotsPerOverflow[1]
        ? `${v.pivotsPerOverflow[0]}`
        : v.pivotsPerOverflow.join('–');
    lines.push(
      `| ${r.store} | ${r.workers} × ${r.appendsPerWorker.toLocaleString('en-US')} | ${r.appendsPerSecond.toLocaleString('en-US')} | ${ms(r.p50Millis)} | ${ms(r.p99Millis)} | ${v.lost} | ${v.duplicated} | ${v.outOfOrder} | ${v.errors} | ${perOverflow} | ${v.overflows} (${v.raced}) | ${v.dropped} | ${v.conflicts.toLocaleString('en-US')} |`,
    );
  }
  const broken = rows.flatMap((r) => [...r.verdict.problems, ...r.verdict.errorSamples]);
  return broken.length === 0 ? lines.join('\n') : [...lines, '', ...broken.map((b) => `- ${b}`)].join('\n');
}

/** Turns over a whole compaction cycle: whether the prune turns stay near the median one. */
export function cycleTable(rows: CycleRow[]): string {
  const lines = [
    '| one compaction cycle, 200k window | store | turns | of which pruned | median turn | mean turn | p99 turn | slowest |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| append step + prepare() | ${r.store} | ${r.turns} | ${r.pruneTurns} | ${micros(r.medianMicros)} | ${micros(r.meanMicros)} | ${micros(r.p99Micros)} | ${micros(r.maxMicros)} |`,
    );
  }
  return lines.join('\n');
}
