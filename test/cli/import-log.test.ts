/**
 * The pure half of `condense import`: an agent's transcript (messages with usage, times and its
 * own compactions) becomes a session log as if recorded live. Checked here without a database:
 * the pivot an imported compaction becomes, the view it starts, the running figures (against a
 * rebuild from the log), and the usage base of the next estimate.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importedLog, type LogSource } from '../../src/cli/import-log.js';
import { planImport } from '../../src/cli/import-write.js';
import { buildView } from '../../src/context/index.js';
import { parseCodex } from '../../src/import/index.js';
import type { CompactionEntry, Entry } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import type { Usage } from '../../src/model/session.js';
import { stateFromEntries } from '../../src/session/state.js';

const NOW = 1_800_000_000_000;
const text = (role: 'user' | 'assistant', t: string): Message => ({
  role,
  parts: [{ type: 'text', text: t }],
});
const usage = (inputTotal: number): Usage => ({
  inputTotal,
  cacheRead: 0,
  cacheWrite: 0,
  output: 10,
  reasoning: 0,
});

function source(over: Partial<LogSource> = {}): LogSource {
  return {
    id: 's',
    agent: 'claude-code',
    messages: [
      { message: text('user', 'first request '.repeat(50)), createdAt: 1000 },
      {
        message: text('assistant', 'first answer '.repeat(80)),
        usage: usage(5000),
        model: 'claude-x',
        createdAt: 2000,
      },
      { message: text('user', 'second request '.repeat(40)), createdAt: 3000 },
      {
        message: text('assistant', 'second answer '.repeat(60)),
        usage: usage(5600),
        model: 'claude-x',
        createdAt: 4000,
      },
      { message: text('user', 'after the compaction'), createdAt: 6000 },
      { message: text('assistant', 'continuing'), usage: usage(3100), model: 'claude-x', createdAt: 7000 },
    ],
    compactions: [
      {
        at: 4,
        summary: 'This session is being continued: the summary.',
        auto: true,
        tokensBefore: 5700,
        createdAt: 5000,
      },
    ],
    ...over,
  };
}

/** The figures a rebuild from the log must agree on (usage and calibration are not in the log). */
function structural(s: ReturnType<typeof stateFromEntries>) {
  const { lastUsage: _u, addedSinceUsage: _a, calibration: _c, ...rest } = s;
  return rest;
}

describe('an imported compaction becomes a pivot', () => {
  const log = importedLog(source(), NOW);
  const pivot = log.entries[4] as CompactionEntry;

  it('sits where the agent compacted, summarizing everything before it, keeping nothing verbatim', () => {
    expect(log.entries.map((e) => e.kind)).toEqual([
      'message',
      'message',
      'message',
      'message',
      'compaction',
      'message',
      'message',
    ]);
    expect(log.entries.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pivot.pivot).toMatchObject({
      summary: 'This session is being continued: the summary.',
      summarizedThroughId: log.entries[3]!.id,
      firstKeptId: null,
      tokensBefore: 5700,
      auto: true,
      summarizer: 'claude-code',
      previousPivotId: null,
      summaryAs: 'user-plain',
    });
    expect(pivot.createdAt).toBe(5000);
    // Each entry keeps the source's time; the session starts with its first message.
    expect(log.entries.map((e) => e.createdAt)).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000]);
    expect(log.createdAt).toBe(1000);
    expect(log.metadata).toEqual({ model: 'claude-x' });
  });

  it('starts the view: the summary as the agent sent it, then what followed; nothing from before', () => {
    const view = buildView(log.entries);
    expect(view).toEqual([
      {
        role: 'user',
        parts: [{ type: 'text', text: 'This session is being continued: the summary.', synthetic: true }],
        metadata: { summary: true, synthetic: true },
      },
      text('user', 'after the compaction'),
      // Each reply keeps its request's reported usage (message metadata is never sent).
      { ...text('assistant', 'continuing'), metadata: { usage: usage(3100) } },
    ]);
  });

  it('leaves running figures a rebuild from the log agrees with', () => {
    expect(structural(log.state)).toEqual(structural(stateFromEntries(log.entries, log.state)));
    expect(log.state).toMatchObject({ activeFromSeq: 4, pivotId: pivot.id, entryCount: 7 });
  });

  it('ends with the last reported usage as the base and its reply as the delta', () => {
    expect(log.state.lastUsage).toEqual({ usage: usage(3100), model: 'claude-x', afterSeq: 6 });
    expect(log.state.addedSinceUsage).toBe(log.entries[6]!.tokens);
    // One calibration sample per reported usage, before and after the compaction alike.
    expect(log.state.calibration['claude-x']?.samples).toBe(3);
  });

  it('without the agent’s own figure, tokensBefore is the estimate at that point; chained pivots link', () => {
    const twice = importedLog(
      source({
        compactions: [
          { at: 2, summary: 'one', auto: false },
          { at: 4, summary: 'two', auto: false },
        ],
      }),
      NOW,
    );
    const [first, second] = twice.entries.filter((e): e is CompactionEntry => e.kind === 'compaction');
    expect(second!.pivot.previousPivotId).toBe(first!.id);
    expect(second!.pivot.summarizedThroughId).toBe(twice.entries[4]!.id);
    // Before the first pivot the last usage was 5000 with the reply since: usage + delta.
    const replyRaw = twice.entries[1]!.tokens;
    const ratio = importedLog(source({ messages: source().messages.slice(0, 2), compactions: [] }), NOW).state
      .calibration['claude-x']!.ratio;
    expect(first!.pivot.tokensBefore).toBe(5000 + Math.ceil(ratio * replyRaw));
    // After it, no usage describes the new view: tokensAfter is the calibrated estimate.
    expect(first!.pivot.tokensAfter).toBeLessThan(first!.pivot.tokensBefore);
    expect(first!.createdAt).toBe(NOW);
  });
});

describe('a Codex compacted item (constructed: the real rollouts hold none)', () => {
  const SUMMARY = 'Another language model started to solve this problem...\nthe parser is fixed';
  const line = (type: string, payload: object) =>
    JSON.stringify({ timestamp: '2026-05-11T08:27:17.490Z', type, payload });
  const userItem = (t: string) => ({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: t }],
  });
  const rollout = [
    line('turn_context', { model: 'gpt-5' }),
    line('response_item', userItem('fix the parser')),
    line('response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'done' }],
    }),
    line('event_msg', {
      type: 'token_count',
      info: { last_token_usage: { input_tokens: 9000, output_tokens: 5 } },
    }),
    line('compacted', {
      message: SUMMARY,
      replacement_history: [userItem('fix the parser'), userItem(SUMMARY)],
    }),
    line('response_item', userItem('now the docs')),
  ].join('\n');

  it('is a pivot: the view is the summary, the kept request, then what followed', async () => {
    const [planned] = planImport([parseCodex(rollout, { file: 'r.jsonl' })], ['c'], 'r.jsonl');
    if (planned?.kind !== 'messages') throw new Error('expected a transcript import');
    const log = importedLog(planned, NOW);
    const pivot = log.entries.find((e): e is CompactionEntry => e.kind === 'compaction')!;
    expect(pivot.pivot).toMatchObject({
      summarizer: 'codex',
      summarizedThroughId: log.entries[1]!.id,
      firstKeptId: null,
    });
    expect(buildView(log.entries).map((m) => (m.parts[0] as { text: string }).text)).toEqual([
      SUMMARY,
      'fix the parser',
      'now the docs',
    ]);
    // The one usage was reported before the compaction: the view since has no reported size.
    expect(log.state.lastUsage).toBeNull();
    expect(log.state.calibration['gpt-5']?.samples).toBe(1);
    expect(log.metadata).toEqual({ model: 'gpt-5' });
  });
});

describe('property: any transcript imports to consistent figures', () => {
  const stepArb = fc.record({
    role: fc.constantFrom('user' as const, 'assistant' as const),
    words: fc.integer({ min: 1, max: 200 }),
    reported: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
  });
  const caseArb = fc.array(stepArb, { minLength: 1, maxLength: 30 }).chain((steps) =>
    fc.record({
      steps: fc.constant(steps),
      at: fc.uniqueArray(fc.integer({ min: 1, max: steps.length }), { maxLength: 4 }),
    }),
  );

  it('the rebuild agrees, the view starts at the latest pivot, and the delta is what came after the usage', () => {
    fc.assert(
      fc.property(caseArb, ({ steps, at }) => {
        const src: LogSource = {
          id: 'p',
          agent: 'codex',
          messages: steps.map((s, i) => ({
            message: text(s.role, `m${i} ${'w '.repeat(s.words)}`),
            ...(s.role === 'assistant' && s.reported ? { usage: usage(s.reported), model: 'm' } : {}),
          })),
          compactions: [...at]
            .sort((a, b) => a - b)
            .map((n) => ({ at: n, summary: `summary ${n}`, auto: true })),
        };
        const log = importedLog(src, NOW);
        expect(log.entries).toHaveLength(steps.length + at.length);
        expect(structural(log.state)).toEqual(structural(stateFromEntries(log.entries, log.state)));
        const pivots = log.entries.filter((e) => e.kind === 'compaction');
        const latest = pivots.at(-1);
        const inView = (e: Entry) => !latest || e.seq > latest.seq;
        const view = buildView(log.entries);
        expect(view.length).toBe(
          log.entries.filter((e) => e.kind === 'message' && inView(e)).length + (latest ? 1 : 0),
        );
        const { lastUsage, addedSinceUsage } = log.state;
        if (lastUsage) {
          const since = log.entries.filter((e) => e.seq >= lastUsage.afterSeq);
          expect(since.every((e) => e.kind === 'message')).toBe(true);
          expect(addedSinceUsage).toBe(since.reduce((a, e) => a + e.tokens, 0));
        } else {
          // As live: with no usage since the view began, the count runs from the latest pivot.
          const since = log.entries.filter((e) => e.kind === 'message' && inView(e));
          expect(addedSinceUsage).toBe(since.reduce((a, e) => a + e.tokens, 0));
        }
      }),
    );
  });
});
