import type { PivotDetails } from '../model/entry.js';
import { type Estimator, heuristicEstimator } from '../tokens/estimator.js';
import { buildExtractiveModel, type CarriedExcerpt, type ExtractiveModel } from './extractive-model.js';
import {
  lineText,
  type RenderMemo,
  renderExtractiveLines,
  renderMemo,
  sortedUnits,
  turnHeading,
} from './extractive-render.js';
import { handoverAndDetails } from './handover/build.js';
import { handoverBudget, type RenderedHandover, renderHandover } from './handover/render.js';
import type { SummaryRequest } from './input.js';
import { prepareUnits } from './select.js';
import { resumableChooser } from './select-resume.js';
import { analyzeSpan, type SpanAnalysis, SpanReader } from './span.js';
import { type SpanSummary, type Summarizer, SummaryRejectedError, type SummaryResult } from './summarizer.js';
import { TextMemo } from './text-memo.js';

export interface ExtractiveOptions {
  /**
   * Token budget of the whole summary, handover included, when the compaction names none (a
   * compaction gives each summary its share of the target: `SummaryRequest.budget`). Default 4,000.
   */
  summaryTokens?: number;
  estimator?: Estimator;
}

/**
 * The offline summarizer: deterministic, no model. It fills its budget with the log's own words,
 * chosen across the whole span — every request's opening, then the most informative sentences of
 * both sides wherever they stand — in Mistral Vibe's sections 1, 2 and 5, and shows the handover
 * (current task, pending work, next step, open failures, commands, files, key values, every
 * request verbatim) in sections 3 to 7 within its share of the budget, what did not fit counted.
 */
export function extractiveSummarizer(options: ExtractiveOptions = {}): Summarizer {
  const estimator = options.estimator ?? heuristicEstimator();
  // The chunks of a long window each re-read the running summary's excerpts: read once, here.
  const memo = new TextMemo();
  // `read`: the analysis of a span read elsewhere (readSpan), made only if not aborted.
  const summarize = (
    request: SummaryRequest,
    read: (() => SpanAnalysis) | undefined,
    signal?: AbortSignal,
  ) => {
    if (signal?.aborted)
      throw new SummaryRejectedError('aborted', 'aborted before summarizing', { cause: signal.reason });
    const budget = request.budget?.tokens ?? options.summaryTokens ?? 4_000;
    try {
      const count = request.budget?.count;
      const lines = count === undefined ? undefined : request.budget?.countLines;
      return summarizeExtractive(request, budget, estimator, count, memo, lines, read?.());
    } finally {
      memo.turn();
    }
  };
  return {
    name: 'extractive',
    async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<SummaryResult> {
      return summarize(request, undefined, signal);
    },
    readSpan(previous: PivotDetails | undefined): SpanSummary {
      const reader = new SpanReader(previous);
      return {
        read: (entries) => reader.read(entries),
        heldTokens: () => reader.heldTokens(),
        summarize: async (request, signal) =>
          summarize(request, () => reader.finish(request.plan.toKeep), signal),
      };
    },
  };
}

/** Rounds of choosing again with the room the last rendering left or overran. */
const FIT_ROUNDS = 8;
/** A rendering this close under the budget ends the search. */
const CLOSE_ENOUGH = 8;

/** One round of the search: the room chosen with, and by how much its rendering overran the budget. */
interface Probe {
  room: number;
  excess: number;
}

/**
 * The room for the next round: where the line through the last two rounds (a rendering grows
 * about as fast as its room; one round alone assumes exactly as fast) puts the rendering a few
 * tokens under the budget. A step that would not land strictly between the largest room known to
 * fit and the smallest known to overrun halves that interval instead, so the search always closes.
 * Halving alone took all 8 rounds to end a few hundred tokens under a 68,000-token budget.
 */
function nextRoom(probe: Probe, last: Probe | undefined, fits: number, overruns: number): number {
  const measured = last === undefined ? 0 : (probe.excess - last.excess) / (probe.room - last.room);
  const slope = measured >= 0.5 && measured <= 2 ? measured : 1;
  const step = Math.round(probe.room - (probe.excess + CLOSE_ENOUGH / 2) / slope);
  // Before any overrun every step lands above the last fit: halving needs both bounds.
  return step > fits && step < overruns ? step : Math.floor((fits + overruns) / 2);
}

/** The synchronous core, for callers (benchmarks, presets) that need no Promise. */
export function summarizeExtractive(
  request: SummaryRequest,
  budget: number,
  estimator: Estimator,
  count: (text: string) => number = estimator.text,
  texts: TextMemo = new TextMemo(),
  countLines: (lines: readonly string[]) => number = (lines) => count(lines.join('\n')),
  /** The span's analysis when it was read elsewhere (Summarizer.readSpan). */
  read?: SpanAnalysis,
): SummaryResult {
  const { plan } = request;
  const previous = plan.previousPivot?.pivot.details;
  const analysis = read ?? analyzeSpan(plan.toSummarize, previous, plan.toKeep);
  const { handover, details } = handoverAndDetails({
    span: plan.toSummarize,
    ...(previous ? { previous } : {}),
    ...(plan.latestUserRequest === undefined ? {} : { latestRequest: plan.latestUserRequest }),
    requestInTail: plan.requestInTail,
    tail: plan.toKeep,
    analysis,
  });
  const instructions = request.instructions
    ? `User's instructions for this summary: ${request.instructions}\n\n`
    : '';
  const model = buildExtractiveModel(plan, details, analysis, estimator);
  // Units are weighed with the local estimate; each rendering is measured with the budget's count.
  const measure = { text: count };
  // A coding session's sections 3 to 7 show the handover; a conversation's summary is its quoted
  // timeline, followed by the handover's few lines (current task, constraints) as a block.
  const shown = model.chat ? { ...handover, requests: [] } : handover;
  const options = {
    budgetTokens: handoverBudget(shown, budget, count),
    estimator: measure,
    // A preset may send the summary without the deterministic block's heading (request.appendix false).
    heading: request.appendix !== false,
  };
  let rendered: RenderedHandover = renderHandover(shown, {
    ...options,
    layout: model.chat ? 'block' : 'seed-004',
  });
  // Too little room for Mistral Vibe's headings: the facts go first, as a block without them.
  if (rendered.text === '' && !model.chat) rendered = renderHandover(shown, { ...options, layout: 'block' });
  const block = model.chat && request.appendix !== false ? rendered.text : '';
  const fixed = count(instructions) + count(block) + 2;
  // Each round's body is measured as lines (`count` of them joined), joined once at the end.
  const size = (body: readonly string[]) => fixed + countLines(body);
  const lineCosts: number[] = [];
  const lineCost = (i: number) => {
    if (lineCosts[i] === undefined) {
      const line = model.lines[i]!;
      const heading = line.section === 'timeline' && !model.chat ? turnHeading(model, line) : '';
      lineCosts[i] = estimator.text(line.label + heading) + 1;
    }
    return lineCosts[i]!;
  };
  const candidates = prepareUnits(model.units, lineCost, (u) => {
    const line = model.lines[u.line]!;
    const s = line.spans[u.piece]!;
    return texts.words(
      s.start === 0 && s.end === line.text.length ? line.text : line.text.slice(s.start, s.end),
    );
  });
  const choose = resumableChooser(candidates);
  const memo = renderMemo();
  let chosen = new Set<number>();
  let body = renderExtractiveLines(model, chosen, rendered, memo);
  // Headings and joints cost what the estimate cannot see, so the room to choose with is searched
  // (see nextRoom), between the largest room known to fit and the smallest known to overrun.
  let fits = 0;
  let overruns = Number.POSITIVE_INFINITY;
  let room = budget - size(body);
  let last: Probe | undefined;
  for (let round = 0; round < FIT_ROUNDS && room > fits && room < overruns; round++) {
    // Rooms a few tokens apart choose about the same units: a search narrowed to that ends.
    if (overruns - fits <= CLOSE_ENOUGH) break;
    const { chosen: next, unbounded } = choose(room);
    const text = renderExtractiveLines(model, next, rendered, memo);
    const excess = size(text) - budget;
    if (excess <= 0) {
      chosen = next;
      body = text;
      fits = room;
      // Any larger room would choose the same units: the rounds left would render this again.
      if (-excess < CLOSE_ENOUGH || unbounded) break;
    } else overruns = room;
    const probe = { room, excess };
    room = nextRoom(probe, last, fits, overruns);
    last = probe;
  }
  keepExcerpts(details, model, chosen, memo);
  const joined = body.join('\n');
  return {
    text: block === '' ? `${instructions}${joined}` : `${instructions}${joined}\n\n${block}`,
    details,
  };
}

/** What the summary quoted, so that the next compaction weighs it again against newer material. */
function keepExcerpts(
  details: PivotDetails,
  model: ExtractiveModel,
  chosen: ReadonlySet<number>,
  memo: RenderMemo,
): void {
  // Units are numbered in line order, a line's pieces in a row: in order, they give the lines in order.
  const units = sortedUnits(chosen);
  // Labels are few ("- ", a speaker's "Caroline: "): each is read once.
  const who = new Map<string, string>();
  const speaker = (label: string) => {
    let w = who.get(label);
    if (w === undefined) {
      w = label.replace(/^- |: $/g, '').trim();
      who.set(label, w);
    }
    return w;
  };
  const excerpts: CarriedExcerpt[] = [];
  for (let k = 0; k < units.length; ) {
    const line = model.units[units[k]!]!.line;
    const l = model.lines[line]!;
    const pieces: number[] = [];
    let value = Number.NEGATIVE_INFINITY;
    for (; k < units.length && model.units[units[k]!]!.line === line; k++) {
      const u = model.units[units[k]!]!;
      pieces.push(u.piece);
      value = Math.max(value, u.carry ?? u.value);
    }
    if (l.section !== 'timeline' && l.section !== 'active') continue;
    excerpts.push([speaker(l.label), l.at ?? 0, lineText(model, memo, line, pieces), Math.min(0.99, value)]);
  }
  details.extra = { ...details.extra, excerpts };
}
