import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { analyzeSpan, SpanReader } from '../../src/compact/span.js';
import { StreamedSpanPlan } from '../../src/compact/streamed-plan.js';
import { isMarkerOnly } from '../../src/compact/turns.js';
import { syntheticSession } from '../../src/demo/synthetic.js';
import { parseTranscript } from '../../src/import/index.js';
import { buildCompactionEntry } from '../../src/model/build.js';
import type { MessageEntry, PivotDetails } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import { historyArb } from '../support/arbitraries.js';
import { entries, estimator } from './helpers.js';

const DATA = fileURLToPath(new URL('../../../shared/data/agent-sessions/claude-code/', import.meta.url));
const realFile = existsSync(DATA)
  ? readdirSync(DATA)
      .sort()
      .map((f) => join(DATA, f))[0]
  : undefined;

/** Cut points of a span of `length`: where its pages end. */
const cutsArb = (length: number) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 12 })
    .map((c) => c.filter((x) => x < length).sort((a, b) => a - b));

function pages<T>(span: readonly T[], cuts: readonly number[]): T[][] {
  const bounds = [0, ...cuts, span.length];
  return bounds.slice(1).map((end, k) => span.slice(bounds[k], end));
}

function readInPages(
  span: readonly MessageEntry[],
  cuts: number[],
  previous?: PivotDetails,
  tail: readonly MessageEntry[] = [],
) {
  const reader = new SpanReader(previous);
  for (const page of pages(span, cuts)) reader.read(page);
  return reader.finish(tail);
}

const PREVIOUS: PivotDetails = {
  filesRead: ['src/a.ts'],
  filesModified: [],
  failedCommands: ['npm test → exit 1'],
  extra: { cwd: '/work/app' },
};

/** Hours between messages (pauses, other days) and the folders a transcript recorded. */
const timesAndFolders = (length: number) =>
  fc.tuple(
    fc.array(fc.integer({ min: 0, max: 30 }), { minLength: length, maxLength: length }),
    fc.array(fc.constantFrom(undefined, '/work/app', '/work/app/web', 'relative/dir'), {
      minLength: length,
      maxLength: length,
    }),
  );

/** The span dated `hours` apart from one another, each message in its recorded folder if any. */
function placed(
  span: MessageEntry[],
  [hours, folders]: [number[], Array<string | undefined>],
): MessageEntry[] {
  let at = Date.UTC(2026, 0, 1, 20);
  return span.map((e, k) => {
    at += hours[k]! * 3_600_000;
    const cwd = folders[k];
    const metadata = cwd === undefined ? e.message.metadata : { ...e.message.metadata, cwd };
    return {
      ...e,
      createdAt: at,
      message: { ...e.message, ...(metadata ? { metadata } : {}) },
    } as MessageEntry;
  });
}

describe('a span read a page at a time (SpanReader)', () => {
  it('gives the analysis the whole span gives, for any pages, dates and folders, with or without a previous pivot (property)', () => {
    fc.assert(
      fc.property(
        historyArb({ maxLength: 30 }).chain((h) =>
          fc.tuple(fc.constant(h), cutsArb(h.length), fc.boolean(), timesAndFolders(h.length)),
        ),
        ([history, cuts, carried, where]) => {
          const span = placed(entries(history), where);
          const previous = carried ? PREVIOUS : undefined;
          const tail = span.slice(-2);
          expect(readInPages(span, cuts, previous, tail)).toEqual(analyzeSpan(span, previous, tail));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same analysis on a generated coding session of 3,000 messages read in pages of 1 to 700', () => {
    const span = entries([...syntheticSession({ messages: 3_000, seed: 7 })]);
    const whole = analyzeSpan(span);
    expect(whole.toolCalls).toBeGreaterThan(500);
    for (const size of [1, 37, 700]) {
      const cuts = Array.from({ length: Math.floor((span.length - 1) / size) }, (_, k) => (k + 1) * size);
      expect(readInPages(span, cuts)).toEqual(whole);
    }
  });

  it.skipIf(realFile === undefined)('gives the same analysis on a real Claude Code session', () => {
    const parsed = parseTranscript(readFileSync(realFile!, 'utf8'), { file: realFile! });
    const session = Array.isArray(parsed) ? parsed[0]! : parsed;
    const span = entries(session.messages.map((m) => m.message));
    const whole = analyzeSpan(span, PREVIOUS);
    expect(whole.messages.length).toBeGreaterThan(10);
    const cuts = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233].filter((c) => c < span.length);
    expect(readInPages(span, cuts, PREVIOUS)).toEqual(whole);
  });

  it('counts what it holds: the texts of the requests and answers it read, not the tool outputs', () => {
    const reader = new SpanReader();
    const big = 'x'.repeat(40_000);
    reader.read(
      entries([
        { role: 'user', parts: [{ type: 'text', text: 'a'.repeat(400) }] },
        {
          role: 'assistant',
          parts: [
            { type: 'text', text: 'b'.repeat(400) },
            {
              type: 'tool',
              callId: 'c1',
              name: 'bash',
              input: { command: 'cat x' },
              state: 'completed',
              output: big,
            },
          ],
        },
      ]),
    );
    expect(reader.heldTokens()).toBe(200 + Math.ceil('cat x'.length / 4));
  });

  it('counts the calls it remembers by their identity, and a failed call with its output', () => {
    const reader = new SpanReader();
    const failed = 'Error: '.repeat(1_000);
    reader.read(
      entries([
        {
          role: 'assistant',
          parts: [
            {
              type: 'tool',
              callId: 'c1',
              name: 'bash',
              input: { command: 'npm test' },
              state: 'error',
              error: failed,
            },
          ],
        },
      ]),
    );
    expect(reader.heldTokens()).toBe(Math.ceil(('npm test'.length + failed.length) / 4));
    reader.finish();
    expect(() => reader.finish()).toThrow('finished already');
    expect(() => reader.read([])).toThrow('read after finish');
  });
});

const markerOnly: Message = { role: 'user', parts: [{ type: 'compaction', auto: true }] };

describe('the plan of a span read and not held (StreamedSpanPlan)', () => {
  it('is the plan planCompaction keeping nothing makes, without the entries (property)', () => {
    fc.assert(
      fc.property(
        historyArb({ maxLength: 30 }).chain((h) =>
          fc.tuple(fc.constant(h), cutsArb(h.length + 1), fc.boolean(), fc.boolean()),
        ),
        ([history, cuts, pivot, marker]) => {
          const messages = marker ? [...history, markerOnly] : history;
          const span = entries(messages, 10);
          const previous = pivot
            ? buildCompactionEntry(
                {
                  summary: 'Earlier work.',
                  summarizedThroughId: 'e9',
                  firstKeptId: null,
                  tokensBefore: 900,
                  tokensAfter: 0,
                  auto: true,
                  summarizer: 'extractive',
                  details: { filesRead: [], filesModified: [], lastUserRequest: 'Ship the fix.' },
                  previousPivotId: null,
                },
                { sessionId: 'test', seq: 9, parentId: null, id: 'e9~summary' },
                estimator,
              )
            : null;
          const streamed = new StreamedSpanPlan(previous);
          for (const page of pages(
            span,
            cuts.filter((c) => c < span.length),
          ))
            streamed.read(page);
          const whole = planCompaction(previous === null ? span : [previous, ...span], { keepNone: true });
          const plan = streamed.plan();
          if (isNothingToCompact(whole)) {
            expect(plan).toBeNull();
            return;
          }
          const { toSummarize, ...figures } = whole;
          expect(plan).toEqual({ ...figures, toSummarize: [] });
          expect(streamed.lastSeq).toBe(toSummarize.at(-1)!.seq);
          expect(toSummarize.every((e) => !isMarkerOnly(e))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
