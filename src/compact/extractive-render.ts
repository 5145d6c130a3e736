import type { ExtractiveModel, Line } from './extractive-model.js';
import type { RenderedHandover } from './handover/render.js';
import { SEED_004_SECTIONS } from './prompts.js';
import { excerpt } from './sentences.js';

const HEADER =
  "Summary of the conversation so far (extractive: the log's own words, chosen across the whole span).";
const CHAT_HEADER = 'Summary of the conversation so far, in its own words:';

const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);

/** "8 May 2023": the day a message was written (UTC). */
export function dayLabel(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/**
 * What one summary's renderings share, by line index: the text last shown for the line (with the
 * pieces it showed: a number for one piece), its day and its turn heading. A summary fitted to
 * its budget renders mostly the same lines round after round.
 */
export interface RenderMemo {
  pieces: Array<number | string | undefined>;
  texts: string[];
  /** The line as shown: its label and text (the same string round after round joins fastest). */
  labelled: string[];
  days: string[];
  headings: string[];
}

export function renderMemo(): RenderMemo {
  return { pieces: [], texts: [], labelled: [], days: [], headings: [] };
}

/** `excerpt` of a line's pieces (a number: one piece), remembered by the pieces when there is a memo. */
export function lineText(
  model: ExtractiveModel,
  memo: RenderMemo | undefined,
  i: number,
  pieces: number | number[],
): string {
  const line = model.lines[i]!;
  const list = typeof pieces === 'number' ? [pieces] : pieces;
  if (memo === undefined) return excerpt(line.text, line.spans, list);
  const key =
    typeof pieces === 'number'
      ? pieces
      : list.length === 1
        ? list[0]!
        : [...list].sort((a, b) => a - b).join(',');
  if (memo.pieces[i] !== key) {
    memo.pieces[i] = key;
    memo.texts[i] = excerpt(line.text, line.spans, list);
    // Joined, not concatenated: a flat string, hashed once when a count memo looks it up.
    memo.labelled[i] = [line.label, memo.texts[i]].join('');
  }
  return memo.texts[i]!;
}

/** `make()`, kept at `i` in `list` when there is a list. */
function remembered(list: string[] | undefined, i: number, make: () => string): string {
  if (list === undefined) return make();
  let v = list[i];
  if (v === undefined) {
    v = make();
    list[i] = v;
  }
  return v;
}

/** The chosen units in ascending order. */
export function sortedUnits(chosen: ReadonlySet<number>): Int32Array {
  const units = new Int32Array(chosen.size);
  let k = 0;
  for (const i of chosen) units[k++] = i;
  return units.sort();
}

/** The chosen pieces of each line, by line index (a number: one piece), and each section's chosen lines in log order. */
interface Chosen {
  pieces: Array<number | number[] | undefined>;
  lines: Record<Line['section'], number[]>;
}

function byLine(model: ExtractiveModel, chosen: ReadonlySet<number>): Chosen {
  const pieces: Chosen['pieces'] = new Array(model.lines.length);
  const lines: Chosen['lines'] = { requests: [], timeline: [], active: [] };
  // Units are numbered in line order, a line's pieces in a row: in order, the units give the lines in order.
  const units = sortedUnits(chosen);
  for (let k = 0; k < units.length; k++) {
    const u = model.units[units[k]!]!;
    const had = pieces[u.line];
    if (had === undefined) {
      pieces[u.line] = u.piece;
      lines[model.lines[u.line]!.section].push(u.line);
    } else if (typeof had === 'number') pieces[u.line] = [had, u.piece];
    else had.push(u.piece);
  }
  return { pieces, lines };
}

function tools(model: ExtractiveModel, turn: number): string {
  const t = model.analysis.turns[turn];
  if (t === undefined || t.tools.size === 0) return '';
  const failed = [...t.tools.values()].reduce((a, x) => a + x.failed, 0);
  const names = [...t.tools].map(([n, x]) => `${n}×${x.calls}`).join(', ');
  return ` (${names}${failed > 0 ? `; ${failed} failed` : ''})`;
}

/**
 * Heading an agent's timeline line opens with when it starts a new turn: the request the turn
 * works on. A turn opened by something other than a request (a notification, an interruption)
 * continues the request before it; only turns before any request, here or carried, come "before
 * the first request".
 */
export function turnHeading(model: ExtractiveModel, line: Line): string {
  if (line.turn === undefined) return '';
  const turns = model.analysis.turns;
  const own = turns[line.turn]?.request ?? -1;
  let request = own;
  for (let t = line.turn; request < 0 && t > 0; t--) request = turns[t - 1]?.request ?? -1;
  const name =
    own >= 0
      ? `After request ${model.carriedRequests + own + 1}`
      : request >= 0
        ? `Still on request ${model.carriedRequests + request + 1}`
        : model.carriedRequests > 0
          ? `Still on request ${model.carriedRequests}`
          : 'Before the first request';
  return `${name}${tools(model, line.turn)}:`;
}

/**
 * The section's lines with their chosen pieces, pushed onto `out`; date headings where the day
 * changes, turn headings for agents.
 */
function shown(
  model: ExtractiveModel,
  c: Chosen,
  section: Line['section'],
  memo: RenderMemo | undefined,
  out: string[] = [],
): string[] {
  const start = out.length;
  let day = '';
  let turn = -1;
  let label = '';
  for (const i of c.lines[section]) {
    const line = model.lines[i]!;
    const at = line.at;
    if (model.analysis.multiDay && at !== undefined) {
      const d = remembered(memo?.days, i, () => dayLabel(at));
      if (d !== day) {
        day = d;
        out.push(`${day}:`);
        label = '';
      }
    }
    if (!model.chat && section === 'timeline' && line.turn !== undefined && line.turn !== turn) {
      turn = line.turn;
      out.push(remembered(memo?.headings, i, () => turnHeading(model, line)));
    }
    const text = lineText(model, memo, i, c.pieces[i]!);
    // A conversation's speaker is named once for their messages in a row: "…" joins them.
    if (model.chat && line.label === label && out.length > start && out[out.length - 1]!.startsWith(label))
      out[out.length - 1] += ` … ${text}`;
    else out.push(memo === undefined ? `${line.label}${text}` : memo.labelled[i]!);
    label = line.label;
  }
  return out;
}

/** [lines shown, lines in all] of a section. */
function count(model: ExtractiveModel, c: Chosen, section: Line['section']): [number, number] {
  return [c.lines[section].length, model.sizes[section]];
}

/**
 * Sections 3 to 7: the handover in Mistral Vibe's layout (rendered once, within its own budget), with
 * section 5 ending in the last assistant message's chosen sentences and the last actions.
 */
function handoverSections(
  model: ExtractiveModel,
  pieces: Chosen,
  handover: RenderedHandover | undefined,
  memo: RenderMemo | undefined,
): string[] {
  const active = shown(model, pieces, 'active', memo);
  const last = model.analysis.lastActions;
  const own = [
    ...(active.length > 0
      ? ['Last assistant message:', ...active]
      : ['- No assistant reply with text in this span.']),
    ...(last.length > 0 ? [`- Last actions: ${last.slice(-5).join('; ')}`] : []),
  ];
  if (handover?.beforeActive !== undefined && handover.afterActive !== undefined)
    return [handover.beforeActive, ...own, handover.afterActive];
  // Room for the facts only, without Mistral Vibe's headings.
  if (handover !== undefined && handover.text !== '') return [handover.text];
  // No room for the handover: the headings, and where the facts are.
  return SEED_004_SECTIONS.slice(2).flatMap((title, i) => [
    ...(i === 0 ? [] : ['']),
    `## ${title}`,
    ...(i === 2 ? own : ["- Left out for lack of room: the session's history has it (history_search)."]),
  ]);
}

/**
 * The summary body for a set of chosen units: Mistral Vibe's seven sections, in order. `memo`,
 * when given, carries line texts from one rendering of the model to the next.
 */
export function renderExtractive(
  model: ExtractiveModel,
  chosen: ReadonlySet<number>,
  handover?: RenderedHandover,
  memo?: RenderMemo,
): string {
  return renderExtractiveLines(model, chosen, handover, memo).join('\n');
}

/** renderExtractive's lines, not joined (a line may hold newlines of its own). */
export function renderExtractiveLines(
  model: ExtractiveModel,
  chosen: ReadonlySet<number>,
  handover?: RenderedHandover,
  memo?: RenderMemo,
): string[] {
  const pieces = byLine(model, chosen);
  const { details: d } = model;
  const [shownTurns, turns] = count(model, pieces, 'timeline');
  const constraints = d.constraints?.length ?? 0;
  // A conversation without tools has no technical context, files, failures or task to hand over:
  // its summary is the quoted timeline alone, with nothing spent on empty sections.
  // Lines are pushed onto one array and joined once: a summary fitted to its budget is rendered
  // round after round, thousands of lines each time.
  const earlier = model.previousSummarizer
    ? `Earlier summary (${model.previousSummarizer}), quoted in part, then this span:`
    : undefined;
  if (model.chat) {
    const out = [
      `${CHAT_HEADER} ${shownTurns} of ${turns} messages quoted, chosen across the whole span; "…" joins messages of one speaker shown apart.`,
    ];
    if (constraints > 0)
      out.push(`${constraints} explicit constraint(s), quoted verbatim at the end: follow them.`);
    if (earlier) out.push(earlier);
    return shown(model, pieces, 'timeline', memo, out);
  }
  const out: string[] = [HEADER, '', `## ${SEED_004_SECTIONS[0]}`];
  const [shownRequests, requests] = count(model, pieces, 'requests');
  if (requests === 0) out.push('- No user request in this span.');
  else {
    out.push(
      `User requests, oldest first, verbatim ("…" joins sentences shown apart)${shownRequests < requests ? `; ${shownRequests} of ${requests} shown` : ''}:`,
    );
    shown(model, pieces, 'requests', memo, out);
  }
  out.push(
    constraints > 0
      ? `- ${constraints} explicit constraint(s), quoted verbatim at the end: follow them.`
      : '- No explicit constraints stated.',
    '',
    `## ${SEED_004_SECTIONS[1]}`,
  );
  if (earlier) out.push(earlier);
  if (turns > shownTurns)
    out.push(`(${shownTurns} of ${turns} messages quoted, chosen across the whole span)`);
  shown(model, pieces, 'timeline', memo, out);
  out.push('', ...handoverSections(model, pieces, handover, memo));
  return out;
}
