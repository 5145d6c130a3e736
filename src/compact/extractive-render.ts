import { timelineLine } from './details.js';
import type { ExtractiveModel } from './extractive-model.js';
import { evenIndices, oneLine, thinEvenly } from './facts.js';
import { SEED_004_SECTIONS } from './prompts.js';
import { shortenMiddle } from './transcript.js';

/** How much of each kind of material one rendering shows. */
export interface DetailLevel {
  newestRequest: number;
  oldRequest: number;
  timelineRequest: number;
  outcome: number;
  lastAssistant: number;
  commands: number;
  fileDetail: boolean;
  previousText: number;
  /** Most lines shown for requests and for the timeline, spread evenly over the span. */
  maxLines: number;
}

/** From generous to terse; the renderer takes the first that fits the budget. */
export const DETAIL_LEVELS: readonly DetailLevel[] = [
  {
    newestRequest: 2000,
    oldRequest: 400,
    timelineRequest: 120,
    outcome: 200,
    lastAssistant: 1500,
    commands: 20,
    fileDetail: true,
    previousText: 8000,
    maxLines: Infinity,
  },
  {
    newestRequest: 1000,
    oldRequest: 200,
    timelineRequest: 80,
    outcome: 120,
    lastAssistant: 800,
    commands: 10,
    fileDetail: true,
    previousText: 4000,
    maxLines: Infinity,
  },
  {
    newestRequest: 500,
    oldRequest: 120,
    timelineRequest: 60,
    outcome: 60,
    lastAssistant: 400,
    commands: 5,
    fileDetail: false,
    previousText: 2000,
    maxLines: Infinity,
  },
  {
    newestRequest: 300,
    oldRequest: 80,
    timelineRequest: 40,
    outcome: 0,
    lastAssistant: 200,
    commands: 3,
    fileDetail: false,
    previousText: 1000,
    maxLines: Infinity,
  },
];

/** Newest request longest: each step back in time halves the allowance, down to `oldRequest`. */
function requestLines(model: ExtractiveModel, level: DetailLevel): string[] {
  const shown = thinEvenly(model.requests, level.maxLines);
  return shown.map((r, i) => {
    const age = shown.length - 1 - i;
    if (age === 0) return `- (newest summarized) ${shortenMiddle(r.trim(), level.newestRequest)}`;
    return `- ${oneLine(r, Math.max(level.oldRequest, Math.floor(level.newestRequest / 2 ** age)))}`;
  });
}

function timeline(model: ExtractiveModel, level: DetailLevel): string[] {
  const carried = model.carriedTimeline;
  const total = carried.length + model.turns.length;
  // Pick the lines first, format only those: a span of 50,000 turns costs what is shown.
  const out = evenIndices(total, level.maxLines).map((i) =>
    i < carried.length
      ? `- ${oneLine(carried[i]!, level.timelineRequest + level.outcome + 60)}`
      : `- ${timelineLine(model.turns[i - carried.length]!, level.timelineRequest, level.outcome)}`,
  );
  if (out.length < total) out.unshift(`(${total} turns; ${out.length} shown, spread over the whole span)`);
  return out;
}

function fileLines(model: ExtractiveModel, level: DetailLevel): string[] {
  if (model.files.length === 0) return ['- No file operations recorded.'];
  if (!level.fileDetail) return [`- ${model.files.length} file(s); full paths are listed at the end.`];
  return model.files.map((f) => {
    const how = f.modified && f.read ? 'read and modified' : f.modified ? 'modified' : 'read';
    return `- ${f.path} — ${how} (${[...f.tools].join(', ')}; ${f.uses}×)`;
  });
}

export function renderExtractive(model: ExtractiveModel, level: DetailLevel): string {
  const out: string[] = ['Summary of the conversation so far (extractive: built from the log itself).'];
  const section = (i: number, lines: string[]) => out.push('', `## ${SEED_004_SECTIONS[i]}`, ...lines);
  const nConstraints = model.details.constraints?.length ?? 0;
  section(0, [
    ...(model.requests.length > 0
      ? ['User requests, oldest first:', ...requestLines(model, level)]
      : ['- No user request in this span.']),
    nConstraints > 0
      ? `- ${nConstraints} explicit constraint(s), quoted verbatim at the end: follow them.`
      : '- No explicit constraints stated.',
  ]);
  const previous =
    model.previousText === undefined
      ? []
      : [
          `Earlier summary (${model.previousSummarizer ?? 'unknown'}):`,
          shortenMiddle(model.previousText, level.previousText),
          '',
        ];
  section(1, [...previous, ...timeline(model, level)]);
  const tools = [...model.toolCounts].map(([n, c]) => `${n}×${c}`).join(', ');
  const types = [...new Set(model.files.map((f) => /\.([A-Za-z0-9]+)$/.exec(f.path)?.[1]).filter(Boolean))];
  section(2, [
    `- Tools used in this span: ${tools === '' ? 'none' : tools}`,
    ...(model.commands.length > 0
      ? [
          `- Commands run (newest last): ${model.commands
            .slice(-level.commands)
            .map((c) => `\`${c}\``)
            .join(', ')}`,
        ]
      : []),
    ...(types.length > 0 ? [`- File types touched: ${types.map((t) => `.${t}`).join(', ')}`] : []),
  ]);
  section(3, fileLines(model, level));
  section(4, [
    ...(model.lastAssistant === ''
      ? [
          model.lastActions.length > 0
            ? '- The last assistant step called tools without text.'
            : '- No assistant reply yet in this span.',
        ]
      : [`- Last assistant message: ${shortenMiddle(model.lastAssistant, level.lastAssistant)}`]),
    ...(model.lastActions.length > 0 ? [`- Last actions: ${model.lastActions.slice(-5).join('; ')}`] : []),
  ]);
  const failures = model.details.failedCommands?.length ?? 0;
  section(5, [
    ...(model.pendingCalls.length > 0
      ? [`- Interrupted calls (no result): ${model.pendingCalls.slice(-5).join('; ')}`]
      : []),
    failures > 0
      ? `- ${failures} command(s) still failing; listed at the end.`
      : '- No failing command recorded.',
  ]);
  section(6, [
    model.details.lastUserRequest
      ? '- Continue with the user\'s latest request, quoted verbatim at the end ("Last request from user was").'
      : "- Wait for the user's next request.",
    ...(model.pendingCalls.length > 0
      ? ['- The last turn was interrupted: re-run the calls left without a result if still needed.']
      : []),
  ]);
  return out.join('\n');
}

/**
 * The most detailed rendering whose tokens (appendix included) fit the budget: first by detail
 * level, then by showing fewer requests and turns spread evenly over the span (coverage beats
 * recency). If even the tersest form is over, the tersest form is returned.
 */
export function renderWithinBudget(
  model: ExtractiveModel,
  fits: (body: string) => boolean,
  lineCap = Number.POSITIVE_INFINITY,
): string {
  for (const level of DETAIL_LEVELS) {
    const body = renderExtractive(model, { ...level, maxLines: Math.min(level.maxLines, lineCap) });
    if (fits(body)) return body;
  }
  const tersest = DETAIL_LEVELS.at(-1)!;
  const longest = Math.max(model.requests.length, model.carriedTimeline.length + model.turns.length);
  let lo = 2;
  let hi = Math.max(lo, Math.min(longest, lineCap));
  let best = renderExtractive(model, { ...tersest, maxLines: lo });
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const body = renderExtractive(model, { ...tersest, maxLines: mid });
    if (fits(body)) {
      best = body;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
