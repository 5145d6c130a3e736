import { describe, expect, it } from 'vitest';
import { extractiveSummarizer } from '../../src/compact/extractive.js';
import type { ExtractiveModel, Line, Unit } from '../../src/compact/extractive-model.js';
import { renderExtractive } from '../../src/compact/extractive-render.js';
import { buildSummaryRequest } from '../../src/compact/input.js';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import type { SpanAnalysis } from '../../src/compact/span.js';
import { assistant, entries, estimator, tool, user } from './helpers.js';

const LINES = 1_000_000;

/** A model whose timeline has a million lines, every one of them chosen. */
function millionLineModel(): { model: ExtractiveModel; chosen: Set<number> } {
  const lines: Line[] = [];
  const units: Unit[] = [];
  for (let i = 0; i < LINES; i++) {
    const text = `step ${i}`;
    lines.push({ section: 'timeline', label: '- ', text, spans: [{ start: 0, end: text.length }] });
    units.push({ line: i, piece: 0, cost: 2, value: 0, tier: 2 });
  }
  const analysis = {
    turns: [],
    toolCounts: new Map(),
    lastActions: [],
    pendingCalls: [],
    base: {},
    multiDay: false,
  } as unknown as SpanAnalysis;
  const sizes = { requests: 0, timeline: LINES, commands: 0, decisions: 0, files: 0, active: 0 };
  const model: ExtractiveModel = {
    chat: false,
    lines,
    units,
    analysis,
    details: { filesRead: [], filesModified: [] },
    carriedRequests: 0,
    requestInTail: false,
    sizes,
  };
  return { model, chosen: new Set(units.keys()) };
}

describe('no stack overflow at any size: a span of a million lines', () => {
  it('the renderer shows a million chosen lines', () => {
    const { model, chosen } = millionLineModel();
    const text = renderExtractive(model, chosen);
    expect(text).toContain(`- step ${LINES - 1}`);
    expect(text.split('\n').length).toBeGreaterThan(LINES);
  });

  it('the extractive summarizer summarizes a tool output and a request of a million lines each', async () => {
    const million = Array.from({ length: LINES }, (_, i) => `line ${i}`).join('\n');
    const plan = planCompaction(
      entries([
        user(`Check every line below.\n${million}`),
        assistant('Reading the log.', tool('bash', { command: 'cat big.log' }, million)),
        user('Now fix it.'),
        assistant('Done.'),
      ]),
      { keepTokens: 10 },
    );
    if (isNothingToCompact(plan)) throw new Error(plan.reason);
    const summary = await extractiveSummarizer({ summaryTokens: 2_000 }).summarize(buildSummaryRequest(plan));
    expect(estimator.text(summary.text)).toBeLessThanOrEqual(
      2_000 + estimator.text(plan.latestUserRequest ?? ''),
    );
    expect(summary.text).toContain('Check every line below.');
  });
});
