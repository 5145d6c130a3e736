import { LAYOUT_LABEL } from '../eval/layouts.js';
import type { EvalReport, SessionRow } from '../eval/report.js';
import { table } from './io.js';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const frac = ([hit, total]: [number, number]) => `${hit}/${total}`;

function locomo(r: EvalReport): string[] {
  const { rows } = r.locomo;
  const names = [...new Set(rows.map((x) => x.strategy))];
  const shares = [...new Set(rows.map((x) => x.share))];
  const layouts = [...new Set(rows.map((x) => x.layout))];
  const head = ['layout', 'strategy', ...shares.flatMap((s) => [`${s * 100}%: evidence`, 'answers', 'used'])];
  const body = layouts.flatMap((layout) =>
    names.map((n, i) => [
      i === 0 ? LAYOUT_LABEL[layout] : '',
      n,
      ...shares.flatMap((s) => {
        const x = rows.find((y) => y.strategy === n && y.share === s && y.layout === layout)!;
        return [pct(x.evidence), pct(x.answers), pct(x.used)];
      }),
    ]),
  );
  const held = r.locomo.heldOut.map((x) => `${x.strategy} ${pct(x.evidence)}`).join(', ');
  return [
    `LoCoMo, ${r.locomo.conversations} conversations, ${r.locomo.questions} questions, three layouts: evidence turns kept verbatim, answers present, budget used (o200k tokens)`,
    table([head, ...body]),
    ...(held ? [`Held out (conversations 6–10; salience weights fitted on 1–5), 25%: ${held}`] : []),
  ];
}

function sessions(r: EvalReport): string[] {
  const head = [
    'strategy',
    'files',
    'user requests',
    'latest request',
    'commands',
    'open failures',
    'fixed listed open',
    'refused listed',
    'current task',
    'next step',
    'used',
  ];
  const body = r.sessions.rows.map((x: SessionRow) => [
    x.strategy,
    frac(x.files),
    frac(x.requests),
    frac(x.latest),
    frac(x.commands),
    frac(x.openFailures),
    x.fixedListedOpen === null ? '—' : String(x.fixedListedOpen),
    x.refusedListed === null ? '—' : String(x.refusedListed),
    x.task[1] === 0 ? '—' : frac(x.task),
    x.next[1] === 0 ? '—' : frac(x.next),
    pct(x.tokens / x.budget),
  ]);
  return [
    `Real agent sessions (${r.sessions.count}), each at a quarter of its tokens, at most 4,000: named in the context`,
    table([head, ...body]),
  ];
}

function planted(r: EvalReport): string[] {
  const rows = Object.entries(r.planted.rows);
  const k = Math.max(0, ...rows.map(([, x]) => x?.length ?? 0));
  const head = ['compactions', ...Array.from({ length: k }, (_, i) => String(i + 1))];
  const body = rows.map(([name, x]) => [name, ...(x ?? []).map((y) => `${y.present}/${y.total}`)]);
  return [
    `Planted facts over repeated automatic compactions (default options, window ${r.planted.window})`,
    table([head, ...body]),
  ];
}

function estimate(r: EvalReport): string[] {
  const { calibrated: c, plain: p } = r.estimate;
  return [
    `Token estimate against reported usage (${r.estimate.requests} requests after each session's first)`,
    table([
      ['estimate', 'mean error', 'median', 'p90'],
      ['condense (last usage + calibrated delta)', pct(c.mean), pct(c.median), pct(c.p90)],
      ['chars/4 of the log', pct(p.mean), pct(p.median), pct(p.p90)],
    ]),
  ];
}

/** The report as terminal tables, then the thresholds. */
export function formatReport(r: EvalReport): string {
  return [
    `condense eval — data: ${r.data}`,
    '',
    ...locomo(r),
    '',
    ...sessions(r),
    '',
    ...planted(r),
    '',
    ...estimate(r),
    '',
    'Checks:',
    ...r.checks.map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`),
    '',
    `(${(r.millis / 1000).toFixed(1)} s)`,
  ].join('\n');
}
