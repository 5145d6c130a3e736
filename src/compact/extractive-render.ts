import type { ExtractiveModel, Line } from './extractive-model.js';
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

/** The chosen pieces of each line, by line index, and the chosen lines in log order. */
interface Chosen {
  pieces: Map<number, number[]>;
  lines: number[];
}

function byLine(model: ExtractiveModel, chosen: ReadonlySet<number>): Chosen {
  const pieces = new Map<number, number[]>();
  for (const i of chosen) {
    const u = model.units[i]!;
    const list = pieces.get(u.line);
    if (list === undefined) pieces.set(u.line, [u.piece]);
    else list.push(u.piece);
  }
  return { pieces, lines: [...pieces.keys()].sort((a, b) => a - b) };
}

function tools(model: ExtractiveModel, turn: number): string {
  const t = model.analysis.turns[turn];
  if (t === undefined || t.tools.size === 0) return '';
  const failed = [...t.tools.values()].reduce((a, x) => a + x.failed, 0);
  const names = [...t.tools].map(([n, x]) => `${n}×${x.calls}`).join(', ');
  return ` (${names}${failed > 0 ? `; ${failed} failed` : ''})`;
}

/** Heading an agent's timeline line opens with when it starts a new turn. */
export function turnHeading(model: ExtractiveModel, line: Line): string {
  if (line.turn === undefined) return '';
  const request = model.analysis.turns[line.turn]?.request ?? -1;
  const name =
    request < 0 ? 'Before the first request' : `After request ${model.carriedRequests + request + 1}`;
  return `${name}${tools(model, line.turn)}:`;
}

/** The section's lines with their chosen pieces; date headings where the day changes, turn headings for agents. */
function shown(model: ExtractiveModel, c: Chosen, section: Line['section']): string[] {
  const out: string[] = [];
  let day = '';
  let turn = -1;
  let label = '';
  for (const i of c.lines) {
    const line = model.lines[i]!;
    if (line.section !== section) continue;
    if (model.analysis.multiDay && line.at !== undefined && dayLabel(line.at) !== day) {
      day = dayLabel(line.at);
      out.push(`${day}:`);
      label = '';
    }
    if (!model.chat && section === 'timeline' && line.turn !== undefined && line.turn !== turn) {
      turn = line.turn;
      out.push(turnHeading(model, line));
    }
    const text = excerpt(line.text, line.spans, c.pieces.get(i)!);
    // A conversation's speaker is named once for their messages in a row: "…" joins them.
    if (model.chat && line.label === label && out.at(-1)?.startsWith(label))
      out[out.length - 1] += ` … ${text}`;
    else out.push(`${line.label}${text}`);
    label = line.label;
  }
  return out;
}

/** [lines shown, lines in all] of a section. */
function count(model: ExtractiveModel, c: Chosen, section: Line['section']): [number, number] {
  let n = 0;
  for (const i of c.lines) if (model.lines[i]!.section === section) n++;
  return [n, model.sizes[section]];
}

/** The summary body for a set of chosen units: seed 004's seven sections, in order. */
export function renderExtractive(model: ExtractiveModel, chosen: ReadonlySet<number>): string {
  const pieces = byLine(model, chosen);
  const { analysis: a, details: d } = model;
  const [shownTurns, turns] = count(model, pieces, 'timeline');
  const constraints = d.constraints?.length ?? 0;
  // A conversation without tools has no technical context, files, failures or task to hand over:
  // its summary is the quoted timeline alone, with nothing spent on empty sections.
  if (model.chat)
    return [
      `${CHAT_HEADER} ${shownTurns} of ${turns} messages quoted, chosen across the whole span; "…" joins messages of one speaker shown apart.`,
      ...(constraints > 0
        ? [`${constraints} explicit constraint(s), quoted verbatim at the end: follow them.`]
        : []),
      ...(model.previousSummarizer
        ? [`Earlier summary (${model.previousSummarizer}), quoted in part, then this span:`]
        : []),
      ...shown(model, pieces, 'timeline'),
    ].join('\n');
  const out: string[] = [HEADER];
  const section = (i: number, lines: string[]) => {
    out.push('', `## ${SEED_004_SECTIONS[i]}`);
    for (const l of lines) out.push(l);
  };
  const [shownRequests, requests] = count(model, pieces, 'requests');
  section(0, [
    ...(requests === 0
      ? ['- No user request in this span.']
      : [
          `User requests, oldest first, verbatim ("…" joins sentences shown apart)${shownRequests < requests ? `; ${shownRequests} of ${requests} shown` : ''}:`,
          ...shown(model, pieces, 'requests'),
        ]),
    constraints > 0
      ? `- ${constraints} explicit constraint(s), quoted verbatim at the end: follow them.`
      : '- No explicit constraints stated.',
  ]);
  section(1, [
    ...(model.previousSummarizer
      ? [`Earlier summary (${model.previousSummarizer}), quoted in part, then this span:`]
      : []),
    ...(turns > shownTurns
      ? [`(${shownTurns} of ${turns} messages quoted, chosen across the whole span)`]
      : []),
    ...shown(model, pieces, 'timeline'),
  ]);
  const toolList = [...a.toolCounts].map(([n, c]) => `${n}×${c}`).join(', ');
  const decisions = shown(model, pieces, 'decisions');
  section(2, [
    `- Tools used in this span: ${toolList === '' ? 'none' : toolList}`,
    ...(count(model, pieces, 'commands')[0] > 0
      ? ['Commands run, with their final outcome (oldest first):']
      : []),
    ...shown(model, pieces, 'commands'),
    ...(decisions.length > 0 ? ['Decisions the user stated (verbatim):', ...decisions] : []),
  ]);
  const modified = d.filesModified.length;
  const modifiedSet = new Set(d.filesModified);
  const read = d.filesRead.filter((f) => !modifiedSet.has(f)).length;
  section(3, [
    modified + read === 0
      ? '- No file operations recorded.'
      : `- ${modified} file(s) modified, ${read} read; every path is listed at the end${a.base.cwd ? ` (relative to ${a.base.cwd})` : ''}.`,
    ...shown(model, pieces, 'files'),
  ]);
  const active = shown(model, pieces, 'active');
  section(4, [
    ...(d.lastUserRequest && !model.chat
      ? [
          `- Current task: the user's latest request, ${model.requestInTail ? 'in the messages kept after this summary' : 'quoted in full at the end'}.`,
        ]
      : []),
    ...(active.length > 0
      ? ['Last assistant message:', ...active]
      : ['- No assistant reply with text in this span.']),
    ...(a.lastActions.length > 0 ? [`- Last actions: ${a.lastActions.slice(-5).join('; ')}`] : []),
  ]);
  const open = d.failedCommands?.length ?? 0;
  section(5, [
    ...(a.pendingCalls.length > 0
      ? [`- Interrupted calls (no result): ${a.pendingCalls.slice(-5).join('; ')}`]
      : []),
    open > 0
      ? `- ${open} call(s) still failing; listed at the end with their errors.`
      : '- No failing command left open.',
  ]);
  const next = Array.isArray(d.extra?.nextStep) ? d.extra.nextStep[0] : undefined;
  section(6, [
    ...(typeof next === 'string' ? [`- The assistant's announced next step: ${next}`] : []),
    d.lastUserRequest
      ? '- Continue with the user\'s latest request ("Last request from user was", verbatim).'
      : "- Wait for the user's next request.",
    ...(a.pendingCalls.length > 0
      ? ['- The last turn was interrupted: re-run the calls left without a result if still needed.']
      : []),
  ]);
  return out.join('\n');
}
