import type { EvalReport } from './run.js';

/** One threshold the offline summarizer must meet, checked on a report. */
export interface EvalCheck {
  name: string;
  pass: boolean;
  detail: string;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The thresholds the extractive summarizer must meet (LLM rows are reported, not judged). */
export function thresholds(r: EvalReport): EvalCheck[] {
  const checks: EvalCheck[] = [];
  const locomo = r.locomo;
  if ('rows' in locomo) {
    const row = (s: string, share: number) => locomo.rows.find((x) => x.strategy === s && x.share === share);
    for (const [share, factor] of [
      [0.25, 2],
      [0.5, 1],
    ] as const) {
      const c = row('condense', share);
      const t = row('newest-tail', share);
      if (!c || !t) continue;
      checks.push({
        name: `LoCoMo ${share * 100}% budget: evidence kept ≥ ${factor}× keep-newest-tail`,
        pass: c.evidence >= factor * t.evidence,
        detail: `${pct(c.evidence)} vs ${pct(t.evidence)} (${(c.evidence / t.evidence).toFixed(2)}×)`,
      });
    }
  }
  if ('rows' in r.sessions) {
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
    }
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
