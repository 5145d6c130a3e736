/**
 * The verdict of a run of concurrent writers: every message each writer appended is stored exactly
 * once, in that writer's order, no error reached a writer, each shared log is sound
 * (check-log.ts), and every window some worker found over the limit got exactly one pivot.
 */
import { messageText } from '../../src/model/message.js';
import type { Store } from '../../src/store/store.js';
import { checkLog, windowKey } from './check-log.js';
import type { WorkerConfig, WorkerReport } from './protocol.js';

export interface Verdict {
  appends: number;
  stored: number;
  /** Messages neither stored nor reported failed to their writer. */
  lost: number;
  duplicated: number;
  outOfOrder: number;
  errors: number;
  /** A few of the errors, for the report. */
  errorSamples: string[];
  /** Errors by name. */
  errorKinds: Record<string, number>;
  pivots: number;
  /** Windows some worker found over the limit and started compacting. */
  overflows: number;
  /** Of those, the windows more than one worker started compacting at once. */
  raced: number;
  /** Compactions dropped at commit because another worker's pivot got there first. */
  dropped: number;
  /** Writes that replaced parts of stored entries (tool results, pruning) while others appended. */
  rewrites: number;
  /** Writes retried after losing a compare-and-swap race (none of them surfaced: see `errors`). */
  conflicts: number;
  /** Fewest and most pivots over one window (1 and 1 when every overflow compacted exactly once). */
  pivotsPerOverflow: [number, number];
  /** Broken invariants of the stored logs. */
  problems: string[];
}

const TAG = /^w(\d+)#(\d+)(?!\d)/;

/** Writer tallies: where each (worker, n) was found, in seq order per session. */
export function tallyWriters(
  found: readonly { session: string; worker: number; n: number }[],
  configs: readonly WorkerConfig[],
  reports: readonly WorkerReport[],
): Pick<Verdict, 'lost' | 'duplicated' | 'outOfOrder' | 'problems'> {
  const problems: string[] = [];
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  for (const config of configs) {
    const mine = found.filter((f) => f.worker === config.worker);
    const counts = new Map<number, number>();
    for (const f of mine) counts.set(f.n, (counts.get(f.n) ?? 0) + 1);
    const failed = new Set(reports.find((r) => r.worker === config.worker)?.failed);
    for (let n = 0; n < config.appends; n++) if (!counts.has(n) && !failed.has(n)) lost++;
    for (const c of counts.values()) duplicated += c - 1;
    const last = new Map<string, number>();
    for (const f of mine) {
      if (f.n >= config.appends || config.sessions[f.n % config.sessions.length] !== f.session)
        problems.push(`w${config.worker}#${f.n} found in ${f.session}, where it was never sent`);
      if ((last.get(f.session) ?? -1) >= f.n) outOfOrder++;
      last.set(f.session, f.n);
    }
  }
  return { lost, duplicated, outOfOrder, problems };
}

export async function verify(
  store: Store,
  configs: readonly WorkerConfig[],
  reports: readonly WorkerReport[],
): Promise<Verdict> {
  const sessions = [...new Set(configs.flatMap((c) => c.sessions))];
  const found: { session: string; worker: number; n: number }[] = [];
  const problems: string[] = [];
  const perWindow: number[] = [];
  let pivots = 0;
  let raced = 0;
  let rewrites = 0;
  for (const id of sessions) {
    const record = await store.getSession(id);
    if (record === undefined) {
      problems.push(`${id}: session missing`);
      continue;
    }
    rewrites += record.state.rewrites ?? 0;
    const entries = await store.loadFrom(id, 0);
    for (const e of entries) {
      const tag = e.kind === 'message' ? TAG.exec(messageText(e.message)) : null;
      if (tag) found.push({ session: id, worker: Number(tag[1]), n: Number(tag[2]) });
    }
    const log = checkLog(entries, record);
    problems.push(...log.problems);
    pivots += log.pivots;
    const starts = new Map<string, number>();
    for (const d of reports.flatMap((r) => r.detected).filter((d) => d.session === id))
      starts.set(windowKey(d.previousPivotId), (starts.get(windowKey(d.previousPivotId)) ?? 0) + 1);
    for (const [window, count] of starts) {
      perWindow.push(log.pivotsByWindow.get(window) ?? 0);
      if (count > 1) raced++;
    }
    for (const window of log.pivotsByWindow.keys())
      if (!starts.has(window)) problems.push(`${id}: a pivot over window "${window}" that no worker started`);
  }
  const writers = tallyWriters(found, configs, reports);
  const errors = reports.flatMap((r) => r.errors);
  return {
    appends: configs.reduce((a, c) => a + c.appends, 0),
    stored: found.length,
    lost: writers.lost,
    duplicated: writers.duplicated,
    outOfOrder: writers.outOfOrder,
    errors: errors.length,
    errorSamples: [...new Set(errors)].slice(0, 5),
    errorKinds: Object.fromEntries(
      [...new Set(errors.map((e) => e.split(':')[0]!))].map((k) => [
        k,
        errors.filter((e) => e.startsWith(`${k}:`)).length,
      ]),
    ),
    pivots,
    overflows: perWindow.length,
    raced,
    dropped: reports.reduce((a, r) => a + r.dropped, 0),
    rewrites,
    conflicts: reports.reduce((a, r) => a + r.conflicts, 0),
    pivotsPerOverflow: perWindow.length === 0 ? [0, 0] : [Math.min(...perWindow), Math.max(...perWindow)],
    problems: [...problems, ...writers.problems],
  };
}
