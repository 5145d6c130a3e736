import type { BreakdownKey, ContextBreakdown } from '../session/breakdown.js';
import { chartSvg } from './chart.js';
import { CLIENT } from './client.js';
import type { ReportData } from './data.js';
import type { ForkNode, LedgerView } from './family.js';
import { STYLE } from './style.js';
import { esc, packedJson, tokens } from './text.js';

const num = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;
const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/**
 * The whole report as one HTML file: the chart, the compaction table and the trees are written
 * here; the compaction details and the turn list are drawn by the page's own script from the
 * embedded JSON when asked for. Nothing is fetched from anywhere.
 */
export function renderPage(data: ReportData): string {
  const { session, budget, series } = data;
  const requests = series.tokens.length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>condense report: ${esc(session.id)}</title><style>${STYLE}</style></head>
<body><main>
<header>
<h1>Session <code>${esc(session.id)}</code></h1>
<p class="meta">model ${esc(session.model)} · ${esc(session.store)} store · ${num(session.entries)} entries · ${num(requests)} requests (${num(data.reported)} sizes reported by the provider) · ${plural(data.compactions.length, 'compaction')} · ${plural(series.prunes.length, 'prune')} · report made ${when(data.generatedAt)} UTC</p>
<div class="cards">
${card(tokens(budget.window), `window${budget.windowFallback ? ' (fallback: model not known)' : ''}`)}
${card(budget.usable === null ? 'unlimited' : tokens(budget.usable), 'usable budget')}
${card(budget.trigger === null ? 'never' : tokens(budget.trigger), 'compaction trigger')}
${card(tokens(data.next.tokens), `next prompt (${esc(data.next.basis)})`)}
</div>
</header>
<section id="timeline"><h2>Prompt size per request</h2>
<div class="legend"><span><i style="background:var(--reported)"></i>prompt tokens per request</span><span><i style="background:var(--reported);height:8px;width:8px;border-radius:4px"></i>reported by the provider</span><span><i style="background:var(--estimated);height:8px;width:8px;border-radius:4px"></i>estimated</span><span><i style="background:#7b8594"></i>window / usable</span><span><i style="background:var(--trigger)"></i>trigger</span><span><i style="background:var(--compaction);width:4px;height:12px"></i>compaction (click)</span><span><i style="background:var(--prune);width:8px;height:8px"></i>prune</span></div>
<div class="chart-wrap">${chartSvg(data)}<div id="tooltip" hidden></div></div>
</section>
<section id="compactions"><h2>Compactions (${data.compactions.length})</h2>
${compactionTable(data)}
<div id="compaction-detail" hidden></div>
</section>
<section id="window"><h2>What fills the window now</h2>
${fillSection(data.fill)}
</section>
<section id="turns-section"><h2>Turns (${num(data.turns.seq.length)})</h2>
<p class="muted">Every turn of the log, the summarized ones included: a compaction hides them from the model, never from the store.</p>
<div id="turns"></div>
</section>
<section id="family"><h2>Forks and events ledger</h2>
<div class="cols"><div><h3>Forks</h3>${forkTree(data.forks, session.id)}</div><div><h3>Events ledger</h3>${ledger(data.ledger)}</div></div>
</section>
</main>
<script type="application/octet-stream" id="report-data" data-encoding="gzip+base64">${packedJson(data)}</script>
<script>${CLIENT}</script>
</body></html>
`;
}

function card(value: string, label: string): string {
  return `<div class="card"><b>${esc(value)}</b><span>${label}</span></div>`;
}

function compactionTable(data: ReportData): string {
  if (data.compactions.length === 0)
    return '<p class="muted">No compaction yet: the whole log is in the view.</p>';
  const rows = data.compactions.map((c, k) => {
    const saved = c.tokensBefore - c.tokensAfter;
    const span = (s: { entries: number; turns: [number, number][] }) =>
      `${plural(s.entries, 'entry', 'entries')}, ${plural(
        s.turns.reduce((a, [x, y]) => a + y - x + 1, 0),
        'turn',
      )}`;
    return `<tr class="compaction" data-k="${k}" tabindex="0"><td class="num">${k + 1}</td><td>${when(c.at)}</td><td class="num before">${num(c.tokensBefore)}</td><td class="num after">${num(c.tokensAfter)}</td><td class="num">${saved >= 0 ? '−' : '+'}${num(Math.abs(saved))}</td><td>${esc(c.summarizer)}${c.model ? ` <span class="muted">(${esc(c.model)})</span>` : ''}</td><td>${c.auto ? 'automatic' : 'asked for'}</td><td>${span(c.summarized)}</td><td>${span(c.kept)}</td><td class="num">${c.quotes.length}</td></tr>`;
  });
  return `<div class="scroll"><table><thead><tr><th class="num">#</th><th>when (UTC)</th><th class="num">tokens before</th><th class="num">after</th><th class="num">change</th><th>summarizer</th><th>how</th><th>summarized</th><th>kept verbatim</th><th class="num">quotes</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** A colour per breakdown row (the keys `condense stats` uses). */
const COLORS: Record<BreakdownKey, string> = {
  system: '#6d7b8f',
  tools: '#a3adbb',
  summary: '#d2453b',
  user: '#2f9e62',
  assistant: '#2f6fde',
  'tool-results': '#e39b22',
  unstored: '#c9a7ea',
};

function fillSection(fill: ContextBreakdown): string {
  const window = fill.contextWindow;
  const scale = Math.max(window, fill.total, 1);
  const pct = (t: number) => `${((t / scale) * 100).toFixed(2)}%`;
  const bar = fill.rows
    .filter((r) => r.tokens > 0)
    .map(
      (r) =>
        `<div style="width:${pct(r.tokens)};background:${COLORS[r.key]}" title="${esc(r.label)}: ${num(r.tokens)}"></div>`,
    )
    .join('');
  const trigger =
    fill.trigger !== null && fill.trigger > 0
      ? `<span class="trigger-line" style="left:${pct(fill.trigger)}" title="trigger ${num(fill.trigger)}"></span>`
      : '';
  const share = (t: number) => (window > 0 ? `${((t / window) * 100).toFixed(1)}%` : '—');
  const row = (label: string, t: number, swatch: string | null) =>
    `<tr><td>${swatch === null ? '&nbsp;&nbsp;&nbsp;&nbsp;' : `<span class="swatch" style="background:${swatch}"></span>`}${esc(label)}</td><td class="num">${num(t)}</td><td class="num">${share(t)}</td></tr>`;
  const rows = fill.rows.flatMap((r) => [
    row(r.label, r.tokens, COLORS[r.key]),
    ...(r.byTool ?? []).map((t) => row(t.name, t.tokens, null)),
  ]);
  if (fill.free !== null) rows.push(row('Free', fill.free, 'transparent'));
  return `<div class="bar" id="fill-bar">${bar}${trigger}</div>
<p class="muted">What the next request holds (${num(fill.total)} tokens, the session's own estimate, as <code>condense stats</code> shows it), against the window of ${num(window)}${fill.trigger !== null ? ` (compaction at ${num(fill.trigger)})` : ''}.</p>
<table id="fill-table"><thead><tr><th>part</th><th class="num">tokens</th><th class="num">of window</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function forkTree(node: ForkNode, current: string): string {
  const item = (n: ForkNode): string =>
    `<li><span class="${n.id === current ? 'current' : ''}">${esc(n.id)}</span> <span class="muted">${num(n.entries)} entries${n.at ? ` · forked at entry ${esc(n.at)}${n.mode ? ` (${esc(n.mode)})` : ''}` : ''}</span>${n.children.length > 0 ? `<ul class="tree">${n.children.map(item).join('')}</ul>` : ''}</li>`;
  const lonely = node.children.length === 0;
  return `<ul class="tree" id="fork-tree">${item(node)}</ul>${lonely ? '<p class="muted">No fork: this session was not forked, nor forked from another.</p>' : ''}`;
}

function ledger(view: LedgerView): string {
  if (!view.available) return '<p class="muted">This store keeps no events ledger.</p>';
  if (view.listed === 0) return '<p class="muted">The ledger holds no events.</p>';
  const channels = view.channels.map(
    ({ channel, events }) =>
      `<li><b>${esc(channel)}</b> <span class="muted">${num(events.length)} events</span><ul class="tree">${events
        .slice(-50)
        .map(
          (e) =>
            `<li><span class="muted">${when(e.at)}</span> ${esc(e.author)}: ${esc(e.body)}${e.quotedAt === undefined ? '' : ` <a href="#" class="seq-link" data-seq="${e.quotedAt}">quoted at entry ${e.quotedAt}</a>`}</li>`,
        )
        .join('')}</ul></li>`,
  );
  return `<ul class="tree" id="ledger-tree">${channels.join('')}</ul>`;
}
