import type { EvalCheck, EvalReport } from './report.js';

export type { EvalCheck } from './report.js';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * What the shipped defaults must reach (LLM rows are reported, not judged): on LoCoMo, in every
 * layout, twice the evidence of keeping the newest turns at a quarter of the conversation and no
 * less at half, half as many answers again at a quarter, every context within its budget by the
 * real count; on real sessions, the handover; planted facts through eight compactions.
 */
export function thresholds(r: EvalReport): EvalCheck[] {
  const checks: EvalCheck[] = [];
  const rows = r.locomo.rows;
  const layouts = [...new Set(rows.map((x) => x.layout))];
  for (const layout of layouts) {
    const row = (s: string, share: number) =>
      rows.find((x) => x.strategy === s && x.share === share && x.layout === layout);
    for (const [share, factor, what] of [
      [0.25, 2, 'evidence'],
      [0.5, 1, 'evidence'],
      [0.25, 1.5, 'answers'],
    ] as const) {
      const c = row('condense', share);
      const t = row('newest-tail', share);
      if (!c || !t) continue;
      checks.push({
        name: `LoCoMo (${layout}) ${share * 100}%: ${what} ≥ ${factor}× keep-newest`,
        pass: c[what] >= factor * t[what],
        detail: `${pct(c[what])} vs ${pct(t[what])} (${(c[what] / t[what]).toFixed(2)}×)`,
      });
    }
  }
  const worst = Math.max(...rows.filter((x) => x.strategy === 'condense').map((x) => x.worst));
  checks.push({
    name: 'LoCoMo: every condense context within its budget (o200k count)',
    pass: worst <= 1,
    detail: `largest ${pct(worst)} of its budget`,
  });
  const c = r.sessions.rows.find((x) => x.strategy === 'condense');
  if (c) {
    const all = (name: string, [hit, total]: [number, number]) =>
      checks.push({ name: `real sessions: ${name}`, pass: hit === total, detail: `${hit}/${total}` });
    all('every file named', c.files);
    all('every user request named', c.requests);
    all('latest request correct', c.latest);
    checks.push({
      name: 'real sessions: no fixed failure listed as open',
      pass: c.fixedListedOpen === 0,
      detail: String(c.fixedListedOpen),
    });
    checks.push({
      name: 'real sessions: no rejected or interrupted call listed as a failure',
      pass: c.refusedListed === 0,
      detail: String(c.refusedListed),
    });
    all('current task handed over (the latest request)', c.task);
    all('next step handed over, in the session’s own words', c.next);
    checks.push({
      name: 'real sessions: every context within its budget (o200k count)',
      pass: c.tokens <= c.budget,
      detail: `${c.tokens} of ${c.budget}`,
    });
  }
  const planted = r.planted.rows.condense?.find((x) => x.compactions === 8);
  checks.push({
    name: 'planted facts all present after 8 compactions',
    pass: planted !== undefined && planted.present === planted.total,
    detail: planted
      ? `${planted.present}/${planted.total}${planted.missing.length ? ` (missing: ${planted.missing.join(', ')})` : ''}`
      : 'fewer than 8 compactions',
  });
  return checks;
}
