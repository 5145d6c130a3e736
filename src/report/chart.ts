import type { ReportData } from './data.js';
import { tokens } from './text.js';

/** The chart's frame in SVG user units; the page scales it to its width. */
export const CHART = { width: 1000, height: 340, left: 70, right: 110, top: 16, bottom: 40 } as const;

const plotW = CHART.width - CHART.left - CHART.right;
const plotH = CHART.height - CHART.top - CHART.bottom;

/** A round step for about `parts` ticks up to `value`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(value: number, parts = 4): number {
  const raw = Math.max(value, 1) / parts;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const step of [1, 2, 2.5, 5]) if (step * power >= raw) return step * power;
  return 10 * power;
}

export interface Scale {
  x(i: number): number;
  y(v: number): number;
  yMax: number;
  /** Between two ticks of the y axis. */
  step: number;
}

export function chartScale(data: ReportData): Scale {
  const n = data.series.tokens.length;
  let top = Math.max(data.budget.window, 1);
  for (const t of data.series.tokens) if (t > top) top = t;
  for (const c of data.compactions) if (c.tokensBefore > top) top = c.tokensBefore;
  const step = niceStep(top * 1.04, 5);
  const yMax = Math.ceil((top * 1.04) / step) * step;
  return {
    step,
    x: (i) => CHART.left + (n <= 1 ? plotW / 2 : (Math.min(Math.max(i, 0), n - 1) / (n - 1)) * plotW),
    y: (v) => CHART.top + plotH * (1 - Math.min(v, yMax) / yMax),
    yMax,
  };
}

const f1 = (v: number) => (Math.round(v * 10) / 10).toString();

/**
 * The prompt size of every request as one polyline (one vertex per request), the window, usable
 * budget and trigger as horizontal lines, each compaction as a drop from its before to its after
 * figure, each prune as a mark on the axis. Written directly as SVG: no script or library needed.
 */
export function chartSvg(data: ReportData): string {
  const s = chartScale(data);
  const n = data.series.tokens.length;
  const out: string[] = [];
  out.push(
    `<svg id="chart" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="prompt tokens per request" data-requests="${n}" data-ymax="${s.yMax}" data-top="${CHART.top}" data-height="${plotH}">`,
  );
  for (let v = 0; v <= s.yMax; v += s.step) {
    const y = f1(s.y(v));
    out.push(
      `<line class="grid" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y}" y2="${y}"/>`,
      `<text class="axis" x="${CHART.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${tokens(v)}</text>`,
    );
  }
  // The three limits' labels sit at the right end, moved apart when their lines are close.
  const candidates: [string, number | null][] = [
    ['window', data.budget.window],
    ['usable', data.budget.usable === data.budget.window ? null : data.budget.usable],
    ['trigger', data.budget.trigger],
  ];
  const limits = candidates
    .flatMap(([label, value]) => (value !== null && value > 0 ? [{ label, value }] : []))
    .map(({ label, value }) => ({ cls: label, label, value, y: s.y(value), labelY: s.y(value) }))
    .sort((a, b) => a.y - b.y);
  limits.forEach((l, i) => {
    if (i > 0) l.labelY = Math.max(l.y, limits[i - 1]!.labelY + 12);
  });
  for (const l of limits) {
    const y = f1(l.y);
    out.push(
      `<line class="limit ${l.cls}" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y}" y2="${y}"><title>${l.label} ${tokens(l.value)}</title></line>`,
      `<text class="limit-label ${l.cls}" x="${CHART.width - CHART.right + 4}" y="${f1(l.labelY)}" dominant-baseline="middle">${l.label} ${tokens(l.value)}</text>`,
    );
  }
  // The line and its dots are drawn by the page's script from the embedded figures (one vertex
  // per request): the numbers are in the file once, not twice.
  out.push('<polyline id="series" class="series" points=""/><g id="dots"></g>');
  const bottom = CHART.top + plotH;
  // Below the marks, so a click on a compaction reaches it; elsewhere the pointer reads a request.
  out.push(
    `<rect id="hover" class="hover" x="${CHART.left}" y="${CHART.top}" width="${plotW}" height="${plotH}"/>`,
  );
  for (const p of data.series.prunes) {
    const x = f1(s.x(p.x - 0.5));
    out.push(
      `<path class="prune-mark" d="M${x},${bottom + 2} l-4,7 h8 z"><title>prune: ${p.parts} tool outputs, ${tokens(p.saved)} tokens hidden</title></path>`,
    );
  }
  data.compactions.forEach((c, k) => {
    const x = f1(s.x(data.series.compactions[k]!.x - 0.5));
    const y1 = f1(s.y(c.tokensBefore));
    const y2 = f1(s.y(c.tokensAfter));
    out.push(
      `<g class="compaction-mark" data-k="${k}" tabindex="0"><line x1="${x}" x2="${x}" y1="${y1}" y2="${y2}"/><circle cx="${x}" cy="${y2}" r="3.5"/><line class="hit" x1="${x}" x2="${x}" y1="${CHART.top}" y2="${bottom}"/><title>compaction ${k + 1}: ${tokens(c.tokensBefore)} → ${tokens(c.tokensAfter)} tokens</title></g>`,
    );
  });
  out.push(
    `<line class="axis-line" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${bottom}" y2="${bottom}"/>`,
    `<text class="axis" x="${CHART.left}" y="${bottom + 24}">request 1</text>`,
    `<text class="axis" x="${CHART.width - CHART.right}" y="${bottom + 24}" text-anchor="end">request ${n.toLocaleString('en-US')}</text>`,
    `<line id="cursor" class="cursor" x1="0" x2="0" y1="${CHART.top}" y2="${bottom}" visibility="hidden"/>`,
    '</svg>',
  );
  return out.join('');
}
