/** The page's stylesheet: system fonts, no web font or image to fetch. */
export const STYLE = `
:root { --fg:#1d2330; --muted:#5f6b7a; --line:#d9dee5; --bg:#fff; --soft:#f4f6f9; --accent:#2f6fde;
  --reported:#2f6fde; --estimated:#9a6bd6; --compaction:#d2453b; --prune:#e39b22; --trigger:#d2453b; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 60px; }
h1 { font-size: 21px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 30px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.meta { color: var(--muted); margin: 0; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 14px; }
.card { background: var(--soft); border-radius: 6px; padding: 8px 12px; min-width: 140px; }
.card b { display: block; font-size: 18px; } .card span { color: var(--muted); font-size: 12px; }
.legend { display: flex; flex-wrap: wrap; gap: 16px; color: var(--muted); font-size: 12.5px; margin-bottom: 4px; }
.legend i { display: inline-block; width: 14px; height: 3px; vertical-align: middle; margin-right: 5px; }
.chart-wrap { position: relative; }
#chart { width: 100%; height: auto; display: block; }
#chart .grid { stroke: #eef1f5; } #chart .axis { fill: var(--muted); font-size: 11px; } #chart .axis-line { stroke: #aab3bf; }
#chart .limit { stroke-width: 1.2; } #chart .limit.window { stroke: #7b8594; }
#chart .limit.usable { stroke: #7b8594; stroke-dasharray: 6 4; } #chart .limit.trigger { stroke: var(--trigger); stroke-dasharray: 3 3; }
#chart .limit-label { font-size: 11px; fill: var(--muted); } #chart .limit-label.trigger { fill: var(--trigger); }
#chart .series { fill: none; stroke: var(--reported); stroke-width: 1.3; stroke-linejoin: round; }
#chart .dot.reported { fill: var(--reported); } #chart .dot.estimated { fill: var(--estimated); }
#chart .hover { fill: transparent; }
#chart .prune-mark { fill: var(--prune); }
#chart .compaction-mark { cursor: pointer; } #chart .compaction-mark line { stroke: var(--compaction); stroke-width: 2; }
#chart .compaction-mark circle { fill: var(--compaction); } #chart .compaction-mark .hit { stroke: transparent; stroke-width: 9; }
#chart .compaction-mark.selected line:first-child { stroke-width: 4; }
#chart .cursor { stroke: #8892a0; stroke-dasharray: 2 2; pointer-events: none; }
#tooltip { position: absolute; pointer-events: none; background: #1d2330; color: #fff; padding: 5px 8px; border-radius: 4px; font-size: 12px; white-space: nowrap; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12.5px; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.compaction { cursor: pointer; } tr.compaction td { white-space: nowrap; } .scroll { overflow-x: auto; } tr.compaction:hover, tr.compaction:focus { background: #fdf1f0; outline: none; }
tr.compaction.selected { background: #fbe3e1; }
#compaction-detail { border: 1px solid var(--line); border-left: 4px solid var(--compaction); border-radius: 6px; padding: 4px 16px 14px; margin-top: 14px; }
pre.summary { white-space: pre-wrap; word-break: break-word; background: var(--soft); padding: 10px 12px; border-radius: 6px; max-height: 420px; overflow: auto; }
dl.details dt { font-weight: 600; margin-top: 6px; } dl.details dd { margin: 2px 0 0 16px; } dl.details ul { margin: 0; padding-left: 18px; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; } @media (max-width: 800px) { .cols { grid-template-columns: 1fr; } }
ul.turns { list-style: none; padding: 0; margin: 0; } ul.turns li { padding: 2px 0; border-bottom: 1px dotted var(--line); }
.tag { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; background: var(--soft); color: var(--muted); margin-right: 4px; }
.tag.kept { background: #e3f3e6; color: #23703a; } .tag.summarized { background: #fbe3e1; color: #9b2c24; } .tag.view { background: #e2ecfb; color: #244f9b; }
blockquote.quote { margin: 4px 0; padding: 2px 10px; border-left: 3px solid var(--line); color: #39424f; }
.bar { display: flex; height: 26px; border-radius: 5px; overflow: hidden; background: var(--soft); position: relative; }
.bar div { height: 100%; } .bar .trigger-line { position: absolute; top: -4px; bottom: -4px; width: 2px; background: var(--trigger); }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: baseline; }
.pager { display: flex; gap: 8px; align-items: center; margin: 6px 0; color: var(--muted); }
.pager button { font: inherit; padding: 2px 10px; }
tr.turn.highlight { background: #fff6d6; } tr.turn.pivot { background: #fdf1f0; }
ul.tree { padding-left: 18px; margin: 4px 0; } ul.tree li { margin: 2px 0; } .current { font-weight: 700; }
.muted { color: var(--muted); } a { color: var(--accent); }
`;
