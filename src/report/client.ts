/**
 * The page's script: inflates the embedded JSON (gzip, base64), follows the pointer over the
 * chart, draws a compaction's details when one is clicked and pages through the turns. Plain
 * browser JavaScript (no template literals, so it sits in this raw string as it runs); the browser
 * test drives it. When it is done, body gets a data-ready attribute (window.condenseReport: the data).
 */
export const CLIENT = String.raw`(function () {
'use strict';
var packed = atob(document.getElementById('report-data').textContent.trim());
var bytes = new Uint8Array(packed.length);
for (var b = 0; b < packed.length; b++) bytes[b] = packed.charCodeAt(b);
new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) {
  var data = JSON.parse(text);
  window.condenseReport = data;
  start(data);
  document.body.setAttribute('data-ready', '');
}).catch(function (error) {
  document.body.insertAdjacentHTML('afterbegin', '<p style="color:#b00">This report could not read its data (' + String(error).replace(/</g, '&lt;') + '): a browser with DecompressionStream is needed.</p>');
  console.error(error);
});

function start(data) {
var $ = function (id) { return document.getElementById(id); };
var esc = function (s) { return String(s).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; }); };
var num = function (n) { return Number(n).toLocaleString('en-US'); };
var when = function (ms) { return new Date(ms).toISOString().replace('T', ' ').slice(0, 19); };
var T = data.turns, S = data.series, C = data.compactions, str = data.strings;
var turnCount = T.seq.length, n = S.tokens.length;
var compactionOf = {};
C.forEach(function (c, k) { compactionOf[c.id] = k; });
/* seq and times are stored as differences from the one before */
function undelta(a) { for (var i = 1; i < a.length; i++) a[i] += a[i - 1]; return a; }
undelta(S.seq); undelta(S.at); undelta(T.at);

/* chart: one vertex per request (and a dot each, coloured by basis, while they stay apart) */
var MAX_DOTS = 3000;
var svg = $('chart'), hover = $('hover'), cursor = $('cursor'), tip = $('tooltip');
var left = hover.x.baseVal.value, width = hover.width.baseVal.value;
var top = Number(svg.dataset.top), height = Number(svg.dataset.height), ymax = Number(svg.dataset.ymax);
function px(i) { return n <= 1 ? left + width / 2 : left + i / (n - 1) * width; }
function py(v) { return top + height * (1 - Math.min(v, ymax) / ymax); }
(function draw() {
  var pts = new Array(n), dots = [];
  for (var i = 0; i < n; i++) {
    var x = Math.round(px(i) * 10) / 10, y = Math.round(py(S.tokens[i]) * 10) / 10;
    pts[i] = x + ',' + y;
    if (n <= MAX_DOTS) dots.push('<circle class="dot ' + (data.basis[i] === '1' ? 'reported' : 'estimated') + '" cx="' + x + '" cy="' + y + '" r="2.2"/>');
  }
  $('series').setAttribute('points', pts.join(' '));
  $('dots').innerHTML = dots.join('');
})();

/* chart: the request under the pointer */
if (n > 0) {
  hover.addEventListener('mousemove', function (ev) {
    var pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    var i = n === 1 ? 0 : Math.max(0, Math.min(n - 1, Math.round((p.x - left) / width * (n - 1))));
    var x = px(i);
    cursor.setAttribute('x1', x); cursor.setAttribute('x2', x); cursor.setAttribute('visibility', 'visible');
    tip.hidden = false;
    tip.innerHTML = 'request ' + num(i + 1) + ' · entry ' + S.seq[i] + '<br>' + num(S.tokens[i]) + ' tokens, ' +
      (data.basis[i] === '1' ? 'reported by the provider' : 'estimated') + '<br>' + when(S.at[i]) + ' UTC';
    var wrap = svg.parentElement.getBoundingClientRect();
    tip.style.left = Math.max(0, Math.min(ev.clientX - wrap.left + 12, wrap.width - 220)) + 'px';
    tip.style.top = (ev.clientY - wrap.top + 14) + 'px';
  });
  hover.addEventListener('mouseleave', function () { tip.hidden = true; cursor.setAttribute('visibility', 'hidden'); });
}

/* turns */
function turnOfSeq(seq) {
  var lo = 0, hi = turnCount - 1;
  while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (T.seq[mid] <= seq) lo = mid; else hi = mid - 1; }
  return lo;
}
function spanOf(ranges) { return ranges.reduce(function (a, r) { return a + r[1] - r[0] + 1; }, 0); }
function turnLink(t) { return '<a href="#turn-' + (t + 1) + '" data-turn="' + t + '">#' + (t + 1) + '</a>'; }
function seqs(t) { return T.seq[t] === T.last[t] ? 'entry ' + T.seq[t] : 'entries ' + T.seq[t] + '–' + T.last[t]; }
function status(t) {
  if (T.pivot[t] >= 0) { var k = T.pivot[t]; return '<a href="#compaction-' + (k + 1) + '" data-compaction="' + k + '" class="tag summarized">compaction ' + (k + 1) + '</a>'; }
  var s = '';
  if (T.summarizedBy[t] >= 0) s += '<a href="#compaction-' + (T.summarizedBy[t] + 1) + '" data-compaction="' + T.summarizedBy[t] + '" class="tag summarized">summarized by ' + (T.summarizedBy[t] + 1) + '</a>';
  if (T.inView[t]) s += '<span class="tag view">in view</span>';
  return s;
}
var PAGE = 100, page = 0, filter = null, highlight = -1;
function renderTurns() {
  var lo = filter ? filter.from : 0, hi = filter ? filter.to : turnCount - 1;
  var total = Math.max(0, hi - lo + 1), pages = Math.max(1, Math.ceil(total / PAGE));
  page = Math.max(0, Math.min(page, pages - 1));
  var rows = [];
  for (var t = lo + page * PAGE; t <= hi && t < lo + (page + 1) * PAGE; t++) {
    rows.push('<tr id="turn-' + (t + 1) + '" class="turn' + (t === highlight ? ' highlight' : '') + (T.pivot[t] >= 0 ? ' pivot' : '') + '"><td class="num">' + turnLink(t) +
      '</td><td class="mono">' + seqs(t) + '</td><td class="num">' + num(T.tokens[t]) + '</td><td>' + when(T.at[t]) +
      '</td><td>' + status(t) + '</td><td class="mono">' + esc(str[T.tools[t]]) + '</td><td>' + esc(str[T.preview[t]]) + '</td></tr>');
  }
  $('turns').innerHTML = '<div class="pager">' +
    (filter ? '<span>' + esc(filter.label) + '</span> <button data-action="all">all turns</button>' : '') +
    '<button data-action="prev"' + (page === 0 ? ' disabled' : '') + '>‹ previous</button><span>page ' + (page + 1) + ' of ' + pages +
    ' (' + num(total) + ' turns)</span><button data-action="next"' + (page >= pages - 1 ? ' disabled' : '') + '>next ›</button>' +
    '<label>turn # <input id="turn-jump" type="number" min="1" max="' + turnCount + '" style="width:7em"></label></div>' +
    '<table><thead><tr><th class="num">turn</th><th>entries</th><th class="num">tokens</th><th>when (UTC)</th><th>status</th><th>tools</th><th>request</th></tr></thead><tbody>' +
    rows.join('') + '</tbody></table>';
}
function gotoTurn(t) {
  if (filter && (t < filter.from || t > filter.to)) filter = null;
  var lo = filter ? filter.from : 0;
  page = Math.floor((t - lo) / PAGE); highlight = t; renderTurns();
  var row = $('turn-' + (t + 1)); if (row) row.scrollIntoView({ block: 'center' });
}

/* compactions */
function turnList(el, ranges, quoted, tag) {
  var all = [];
  ranges.forEach(function (r) { for (var t = r[0]; t <= r[1]; t++) all.push(t); });
  var shown = 0;
  function more() {
    var html = [];
    for (var i = shown; i < all.length && i < shown + 100; i++) {
      var t = all[i];
      html.push('<li>' + turnLink(t) + ' <span class="tag ' + tag + '">' + tag + '</span>' + (quoted[t] ? '<span class="tag">quoted ×' + quoted[t] + '</span>' : '') +
        ' <span class="muted mono">' + seqs(t) + '</span> ' + esc(str[T.preview[t]]) + '</li>');
    }
    shown = Math.min(all.length, shown + 100);
    var old = el.querySelector('li.more'); if (old) old.remove();
    el.insertAdjacentHTML('beforeend', html.join('') + (shown < all.length ? '<li class="more"><button>show ' + Math.min(100, all.length - shown) + ' more of ' + num(all.length - shown) + '</button></li>' : ''));
    var button = el.querySelector('li.more button'); if (button) button.addEventListener('click', more);
  }
  if (all.length === 0) el.innerHTML = '<li class="muted">none</li>'; else more();
}
function showCompaction(k, scroll) {
  var c = C[k];
  if (!c) return;
  document.querySelectorAll('.selected').forEach(function (e) { e.classList.remove('selected'); });
  document.querySelectorAll('[data-k="' + k + '"]').forEach(function (e) { e.classList.add('selected'); });
  var latest = k === C.length - 1;
  var quoted = {};
  c.quotes.forEach(function (q) { if (q.turn >= 0) quoted[q.turn] = (quoted[q.turn] || 0) + 1; });
  var prev = c.previousId === null ? -1 : compactionOf[c.previousId];
  var span = c.summarized.firstSeq === null ? 'nothing' : 'entries ' + c.summarized.firstSeq + '–' + c.summarized.lastSeq;
  var read = c.summarized.firstSeq === null ? '' : latest
    ? ' Read it whole: <code>condense archive read ' + esc(data.session.id) + ' --range ' + c.summarized.firstSeq + '..' + c.summarized.lastSeq + '</code>'
    : ' Every entry: <code>condense export ' + esc(data.session.id) + '</code>';
  var details = c.details.map(function (d) {
    return '<dt>' + esc(d[0]) + ' <span class="muted">(' + d[1].length + ')</span></dt><dd>' + (d[1].length === 0 ? '<span class="muted">none</span>' :
      '<ul>' + d[1].map(function (v) { return '<li>' + esc(str[v]) + '</li>'; }).join('') + '</ul>') + '</dd>';
  }).join('');
  var quotes = c.quotes.map(function (q) {
    return '<blockquote class="quote">' + esc(str[q.text]) + '<br><span class="muted">from ' + (q.turn < 0 ? 'the previous summary' : 'turn ' + turnLink(q.turn) + ', entry ' + q.seq) + '</span></blockquote>';
  }).join('');
  var el = $('compaction-detail');
  el.hidden = false;
  el.innerHTML = '<h3 id="compaction-title">Compaction ' + (k + 1) + ' · ' + when(c.at) + ' UTC · ' + (c.auto ? 'automatic' : 'asked for') + '</h3>' +
    '<p><b class="before">' + num(c.tokensBefore) + '</b> → <b class="after">' + num(c.tokensAfter) + '</b> tokens · summarizer <b>' + esc(c.summarizer) + '</b>' +
    (c.model ? ' (' + esc(c.model) + ')' : '') + ' · summary ' + num(c.summaryTokens) + ' tokens' +
    (prev >= 0 ? ' · it summarized the summary of <a href="#compaction-' + (prev + 1) + '" data-compaction="' + prev + '">compaction ' + (prev + 1) + '</a> too' : '') + '</p>' +
    '<p>Archived span: ' + span + (c.summarized.turns.length ? ' — <a href="#turns-section" data-span="' + k + '">show these turns in the turn list</a>.' : '.') + read + '</p>' +
    '<h4>Summary</h4><pre class="summary" id="summary-text">' + esc(c.summary.map(function (i) { return str[i]; }).join('\n')) + '</pre>' +
    '<h4>What it carries</h4>' + (details ? '<dl class="details">' + details + '</dl>' : '<p class="muted">no details</p>') +
    '<div class="cols"><div><h4>Kept verbatim: ' + num(spanOf(c.kept.turns)) + ' turns, ' + num(c.kept.entries) + ' entries, ' + num(c.kept.tokens) + ' tokens</h4><ul class="turns" id="kept-turns"></ul></div>' +
    '<div><h4>Summarized: ' + num(spanOf(c.summarized.turns)) + ' turns, ' + num(c.summarized.entries) + ' entries, ' + num(c.summarized.tokens) + ' tokens</h4><ul class="turns" id="summarized-turns"></ul></div></div>' +
    '<h4>What the summary quotes from them: ' + c.quotes.length + ' of ' + c.pieces + ' pieces of its text</h4>' + (quotes || '<p class="muted">no piece of the summary appears word for word in the span</p>');
  turnList($('kept-turns'), c.kept.turns, quoted, 'kept');
  turnList($('summarized-turns'), c.summarized.turns, quoted, 'summarized');
  if (scroll) el.scrollIntoView({ block: 'start' });
}

document.addEventListener('click', function (ev) {
  var a = ev.target.closest('[data-turn],[data-compaction],[data-span],[data-action],a.seq-link,tr.compaction,.compaction-mark');
  if (!a) return;
  if (a.matches('button[data-action]')) {
    if (a.dataset.action === 'prev') page--; else if (a.dataset.action === 'next') page++; else { filter = null; page = 0; }
    renderTurns(); return;
  }
  ev.preventDefault();
  if (a.dataset.turn !== undefined) { gotoTurn(Number(a.dataset.turn)); history.replaceState(null, '', '#turn-' + (Number(a.dataset.turn) + 1)); }
  else if (a.dataset.span !== undefined) {
    var r = C[Number(a.dataset.span)].summarized.turns;
    filter = { from: r[0][0], to: r[r.length - 1][1], label: 'turns summarized by compaction ' + (Number(a.dataset.span) + 1) };
    page = 0; highlight = -1; renderTurns(); $('turns-section').scrollIntoView({ block: 'start' });
  } else if (a.classList.contains('seq-link')) gotoTurn(turnOfSeq(Number(a.dataset.seq)));
  else {
    var k = Number(a.dataset.compaction !== undefined ? a.dataset.compaction : a.dataset.k);
    showCompaction(k, true); history.replaceState(null, '', '#compaction-' + (k + 1));
  }
});
document.addEventListener('keydown', function (ev) {
  var row = ev.target.closest && ev.target.closest('tr.compaction,.compaction-mark');
  if (row && (ev.key === 'Enter' || ev.key === ' ')) { ev.preventDefault(); showCompaction(Number(row.dataset.k), true); }
});
document.addEventListener('change', function (ev) {
  if (ev.target.id !== 'turn-jump') return;
  var t = Number(ev.target.value) - 1;
  if (t >= 0 && t < turnCount) gotoTurn(t);
});

renderTurns();
var hash = /^#(compaction|turn)-(\d+)$/.exec(location.hash);
if (hash && hash[1] === 'compaction') showCompaction(Number(hash[2]) - 1, true);
else if (hash && hash[1] === 'turn') gotoTurn(Number(hash[2]) - 1);
}
})();
`;
