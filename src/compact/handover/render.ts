import type { Estimator } from '../../tokens/estimator.js';
import { LAST_REQUEST_PREFIX, SEED_004_SECTIONS } from '../prompts.js';
import { fitSections } from './fit.js';
import { DEFAULT_SHARES, NOUNS, sectionsOf } from './sections.js';
import { HANDOVER_SECTIONS, type Handover, type HandoverSection } from './types.js';

export { DEFAULT_SHARES } from './sections.js';

/** The first line of the handover block: a later summary finds it to drop the block (stripAppendix). */
export const HANDOVER_HEADING = '--- Handover (facts from the session log) ---';

/**
 * Share of a summary's budget the handover may take; it takes only what it needs, and the
 * summary's own text (excerpts, a model's answer) gets the rest.
 */
export const HANDOVER_SHARE = 0.5;

/** The most of a summary's budget the handover takes when the latest request alone needs more. */
const MAX_SHARE = 0.9;
/** Room kept beside the latest request for the rest of the current task and the next step. */
const BESIDE_REQUEST = 64;

/**
 * The handover's budget within a summary's: its share, or more when the latest request (which
 * every summary must repeat whole) needs it, up to MAX_SHARE of the budget.
 */
export function handoverBudget(h: Handover, summaryTokens: number, count: (text: string) => number): number {
  const share = Math.floor(summaryTokens * HANDOVER_SHARE);
  const t = h.currentTask;
  if (t === undefined || t.inTail || t.request.length > summaryTokens * 8) return share;
  const needed = count(`${LAST_REQUEST_PREFIX}${t.request}`) + BESIDE_REQUEST;
  return Math.min(Math.floor(summaryTokens * MAX_SHARE), Math.max(share, needed));
}

export interface RenderHandoverOptions {
  /** The most tokens the text may take (by `estimator`). */
  budgetTokens: number;
  /** What counts the text: an estimator, or `{ text: count }` with the provider's count. */
  estimator: Pick<Estimator, 'text'>;
  /**
   * 'block' (default): the handover under its own heading, for the end of any summary. 'seed-004':
   * Mistral Vibe's sections 3 to 7, for the extractive summary (its section 5 lines go at `beforeActive`'s end).
   */
  layout?: 'block' | 'seed-004';
  /** Relative shares of the budget, per section (see DEFAULT_SHARES). */
  shares?: Partial<Record<HandoverSection, number>>;
  /** Start with HANDOVER_HEADING (default true): what lets a later summary find and drop the block. */
  heading?: boolean;
}

export interface RenderedHandover {
  text: string;
  /** Items left out for lack of room, per section. */
  omitted: Partial<Record<HandoverSection, number>>;
  tokens: number;
  /** 'seed-004' layout: `text` split where section 5 (Active Work) ends, for lines of its own. */
  beforeActive?: string;
  afterActive?: string;
}

/** The line that says what was left out and where to find it. */
function pointer(omitted: Record<string, number>): string[] {
  const parts = HANDOVER_SECTIONS.filter((s) => (omitted[s] ?? 0) > 0).map(
    (s) => `${omitted[s]} ${NOUNS[s]}`,
  );
  return parts.length === 0
    ? []
    : [
        `(Left out for lack of room: ${parts.join(', ')}; the session's history has them: history_search, session_archive_read.)`,
      ];
}

/** Mistral Vibe's sections 3 to 7, and what each shows of the handover (requests follow them). */
const SEED_LAYOUT: Array<[number, HandoverSection[]]> = [
  [2, ['commands', 'values', 'decisions']],
  [3, ['files']],
  [4, ['task']],
  [5, ['failures', 'pending', 'interrupted']],
  [6, ['constraints', 'next']],
];

function composeBlock(
  lines: Map<string, string[]>,
  omitted: Record<string, number>,
  heading: boolean,
): string {
  const body = HANDOVER_SECTIONS.flatMap((s) => lines.get(s) ?? []);
  return [
    ...(heading ? [HANDOVER_HEADING] : []),
    ...(body.length === 0 ? ['(nothing recorded yet)'] : body),
    ...pointer(omitted),
  ].join('\n');
}

/** The seed-004 layout, split after section 5's own lines (see RenderedHandover). */
function composeSeed(
  lines: Map<string, string[]>,
  omitted: Record<string, number>,
  heading: boolean,
): [string, string] {
  const before: string[] = heading ? [HANDOVER_HEADING] : [];
  const after: string[] = [];
  for (const [index, ids] of SEED_LAYOUT) {
    const body = ids.flatMap((s) => lines.get(s) ?? []);
    const into = index <= 4 ? before : after;
    if (into.length > 0 || into === after) into.push('');
    // A section with nothing to show says so in two words (section 5 has the summary's own lines).
    into.push(`## ${SEED_004_SECTIONS[index]}`, ...(body.length === 0 && index !== 4 ? ['- None.'] : body));
  }
  const requests = lines.get('requests') ?? [];
  after.push(...(requests.length > 0 ? ['', ...requests] : []), ...pointer(omitted));
  return [before.join('\n'), after.join('\n')];
}

/**
 * The handover as text within `budgetTokens`: every section gets a share of the budget; what
 * does not fit is counted (`omitted`) and pointed to in the text. The text is never longer than
 * the budget by `estimator`: when not even the headings fit, it is empty.
 */
export function renderHandover(handover: Handover, options: RenderHandoverOptions): RenderedHandover {
  const { estimator } = options;
  const budget = Math.max(0, Math.floor(options.budgetTokens));
  const shares = { ...DEFAULT_SHARES, ...options.shares };
  const sections = sectionsOf(handover, shares, budget * 3);
  const seed = options.layout === 'seed-004';
  const heading = options.heading !== false;
  const fitted = fitSections(sections, budget, estimator, (lines, omitted) =>
    seed ? composeSeed(lines, omitted, heading).join('\n') : composeBlock(lines, omitted, heading),
  );
  const omitted = fitted.omitted as RenderedHandover['omitted'];
  if (!seed || fitted.text === '') return { text: fitted.text, omitted, tokens: fitted.tokens };
  const lines = new Map(sections.map((s) => [s.id, s.render(fitted.shown.get(s.id) ?? new Map(), 0)]));
  const [beforeActive, afterActive] = composeSeed(lines, fitted.omitted, heading);
  return { text: fitted.text, omitted, tokens: fitted.tokens, beforeActive, afterActive };
}
