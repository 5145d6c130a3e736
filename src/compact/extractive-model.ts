import type { PivotDetails } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import type { Estimator } from '../tokens/estimator.js';
import { stripAppendix } from './appendix.js';
import { carriedLines } from './details.js';
import { hasCarriedWork } from './handover/store.js';
import type { CompactionPlan } from './plan.js';
import { likelihood, salience, type UnitContext } from './salience.js';
import { type Span, sentenceSpans } from './sentences.js';
import type { SpanAnalysis } from './span.js';

/** Where a line of the summary goes. */
/** The sections quoted lines go to; the handover (files, commands, decisions…) is rendered apart. */
export type Section = 'requests' | 'timeline' | 'active';

/** One line of the summary: a source text shown through its chosen sentences. */
export interface Line {
  section: Section;
  /** `- 3. `, `- Caroline: `: what precedes the text. */
  label: string;
  text: string;
  spans: Span[];
  /** Time of the message, for date headings; undefined for carried lines. */
  at?: number;
  turn?: number;
}

/** A piece of a line that can be chosen: its cost in tokens and how likely it is to be needed. */
export interface Unit {
  line: number;
  piece: number;
  cost: number;
  value: number;
  /** 1: shown before anything of tier 2 (request openings, failures, the last reply's start). */
  tier: 1 | 2;
  /** The value the next summary starts from, when it differs (see CARRIED_BONUS). */
  carry?: number;
}

/**
 * Log-odds added to what an earlier summary quoted: it was the best of its span once, and the
 * oldest facts must not fade just because newer material keeps coming. Not compounded: the next
 * summary carries the value without it.
 */
const CARRIED_BONUS = 0.7;

/** A carried excerpt: [who, time, text, value]. */
export type CarriedExcerpt = [string, number, string, number];

export interface ExtractiveModel {
  /** No tool was called: a conversation, shown as one quoted timeline of both speakers. */
  chat: boolean;
  lines: Line[];
  units: Unit[];
  analysis: SpanAnalysis;
  details: PivotDetails;
  /** Requests of earlier summaries (their lines come first). */
  carriedRequests: number;
  /** The latest request is among the messages kept verbatim after the summary. */
  requestInTail: boolean;
  /** Lines per section, shown or not. */
  sizes: Record<Section, number>;
  previousSummarizer?: string;
}

/** Texts up to this long are one unit; longer ones are chosen sentence by sentence. */
const WHOLE_CHARS = 600;
/** Sentences of a long text that can be chosen: the rest of a huge text is not read. */
const MAX_PIECES = 60;
/** A request's opening: its first sentences up to this many characters, shown whatever the budget. */
const OPENING_CHARS = 200;
const NO_CONTEXT: UnitContext = { answersQuestion: false, opensSession: false, closesSession: false };

function carriedExcerpts(details: PivotDetails | undefined): CarriedExcerpt[] {
  const v: JsonValue | undefined = details?.extra?.excerpts;
  if (!Array.isArray(v)) return [];
  return v.filter(
    (x): x is CarriedExcerpt =>
      Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'number' && typeof x[2] === 'string',
  );
}

class Builder {
  readonly lines: Line[] = [];
  readonly units: Unit[] = [];
  constructor(private readonly estimator: Estimator) {}

  /**
   * Adds a line and its units; `value(piece, text)` gives each piece's log-odds, `tier1(piece,
   * startChar)` its tier, `bonus` log-odds added for choosing only.
   */
  add(
    line: Omit<Line, 'spans'>,
    value: (piece: number, text: string) => number,
    tier1: (piece: number, start: number) => boolean = () => false,
    bonus = 0,
  ): void {
    const spans =
      line.text.length <= WHOLE_CHARS
        ? [{ start: 0, end: line.text.length }]
        : sentenceSpans(line.text).slice(0, MAX_PIECES);
    if (spans.length === 0) return;
    const index = this.lines.length;
    this.lines.push({
      section: line.section,
      label: line.label,
      text: line.text,
      spans,
      at: line.at,
      turn: line.turn,
    });
    for (let piece = 0; piece < spans.length; piece++) {
      const s = spans[piece]!;
      const whole = s.start === 0 && s.end === line.text.length;
      const text = whole ? line.text : line.text.slice(s.start, s.end);
      const logOdds = value(piece, text);
      const unit: Unit = {
        line: index,
        piece,
        cost: this.estimator.text(text) + 1,
        value: likelihood(logOdds + bonus),
        tier: tier1(piece, s.start) ? 1 : 2,
      };
      if (bonus !== 0) unit.carry = likelihood(logOdds);
      this.units.push(unit);
    }
  }
}

/** Gathers every line the summary could show, with the value and cost of each piece. */
export function buildExtractiveModel(
  plan: CompactionPlan,
  details: PivotDetails,
  analysis: SpanAnalysis,
  estimator: Estimator,
): ExtractiveModel {
  const prev = plan.previousPivot?.pivot;
  const chat = analysis.toolCalls === 0 && !hasCarriedWork(prev?.details);
  const b = new Builder(estimator);
  const lastReply = analysis.messages.findLast((m) => m.role === 'assistant');
  const requests = chat ? [] : carriedLines(prev?.details, 'requests');
  const total = requests.length + analysis.userTexts.length;
  // Every request's opening is worth more than any excerpt; the first (the goal) and the newest are
  // shown whatever the budget, the others as room allows, shortest first.
  const request = (n: number, label: string, text: string, at?: number) =>
    b.add(
      { section: 'requests', label, text, ...(at === undefined ? {} : { at }) },
      (piece, t) => salience(t, NO_CONTEXT) + (piece === 0 ? 4 : 2.5),
      (_p, start) => start < OPENING_CHARS && (n === 1 || n > total - 3),
    );
  requests.forEach((text, i) => {
    request(i + 1, `- ${i + 1}. `, text);
  });
  // Earlier summaries: an extractive one carries its excerpts, any other is quoted sentence by sentence.
  for (const [who, at, text, value] of carriedExcerpts(prev?.details)) {
    const v = Math.min(0.99, Math.max(0.01, value));
    const line = { section: 'timeline' as const, label: who === '' ? '- ' : `${who}: `, text };
    b.add(at > 0 ? { ...line, at } : line, () => Math.log(v / (1 - v)), undefined, CARRIED_BONUS);
  }
  for (const text of carriedLines(prev?.details, 'timeline'))
    b.add({ section: 'timeline', label: '- ', text }, () => 0);
  const previousText =
    prev !== undefined && prev.summarizer !== 'extractive' ? stripAppendix(prev.summary) : undefined;
  if (previousText !== undefined)
    b.add({ section: 'timeline', label: '- ', text: previousText }, (_p, t) => salience(t, NO_CONTEXT) + 2);
  let n = requests.length;
  // A text said again adds nothing: only its first saying is a candidate (requests are all listed).
  const said = new Set<string>();
  for (const m of analysis.messages) {
    if (!chat && m.role === 'user') {
      n++;
      request(n, `- ${n}.${m.queued ? ' (typed while the agent worked)' : ''} `, m.text, m.at);
      continue;
    }
    const active = !chat && m === lastReply;
    if (!active && said.has(m.text)) continue;
    said.add(m.text);
    b.add(
      {
        section: active ? 'active' : 'timeline',
        label: chat ? `${m.who}: ` : '- ',
        text: m.text,
        at: m.at,
        turn: m.turn,
      },
      (piece, t) => salience(t, m.ctx) + (piece === 0 ? 0.3 : 0) + (active ? 1.5 : 0),
      (piece) => active && piece < 2,
    );
  }
  const sizes: Record<Section, number> = {
    requests: 0,
    timeline: 0,
    active: 0,
  };
  for (const l of b.lines) sizes[l.section]++;
  return {
    chat,
    sizes,
    lines: b.lines,
    units: b.units,
    analysis,
    details,
    carriedRequests: requests.length,
    requestInTail: plan.requestInTail,
    ...(previousText === undefined ? {} : { previousSummarizer: prev!.summarizer }),
  };
}
