import { describe, expect, it } from 'vitest';
import { extractiveSummarizer, summarizeExtractive } from '../../src/compact/extractive.js';
import { HANDOVER_HEADING } from '../../src/compact/handover/index.js';
import { buildSummaryRequest, LAST_REQUEST_PREFIX, SEED_004_SECTIONS } from '../../src/compact/input.js';
import { type CompactionPlan, isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { SummaryRejectedError } from '../../src/compact/summarizer.js';
import type { Message } from '../../src/model/message.js';
import { assistant, entries, estimator, failedTool, TestLog, tool, user } from './helpers.js';

function plan(...args: Parameters<typeof planCompaction>): CompactionPlan {
  const p = planCompaction(...args);
  if (isNothingToCompact(p)) throw new Error(p.reason);
  return p;
}

const session: Message[] = [
  user('Set up the auth module. Never push to main.'),
  assistant('Looking at the code', tool('Read', { file_path: 'src/auth/index.ts' }, 'export {}')),
  assistant('', tool('Edit', { file_path: 'src/auth/token-store.ts', old_string: 'a', new_string: 'b' })),
  assistant('', tool('bash', { command: 'npm test' }, { output: 'FAIL', exitCode: 1 })),
  assistant(
    'Fixing expiry.',
    failedTool('Edit', { file_path: 'src/auth/expiry.ts' }, 'old_string not found'),
  ),
  user('Also add a retry limit of 7.'),
  assistant('Added.', tool('Write', { file_path: 'src/auth/retry.ts', content: 'export const LIMIT = 7' })),
  user('Now document it in README.md'),
  assistant('Doing it'),
];

describe('extractive summarizer', () => {
  it('fills the seven sections of seed 004, in order, the handover in sections 3 to 7', async () => {
    const r = await extractiveSummarizer().summarize(
      buildSummaryRequest(plan(entries(session), { keepNone: true })),
    );
    let at = -1;
    for (const title of SEED_004_SECTIONS) {
      const next = r.text.indexOf(`## ${title}`);
      expect(next).toBeGreaterThan(at);
      at = next;
    }
    const handover = r.text.indexOf(HANDOVER_HEADING);
    expect(handover).toBeGreaterThan(r.text.indexOf(`## ${SEED_004_SECTIONS[1]}`));
    expect(handover).toBeLessThan(r.text.indexOf(`## ${SEED_004_SECTIONS[2]}`));
    // Section 5 opens with the current task: the latest request, verbatim (seed 004's line).
    const active = r.text.slice(r.text.indexOf(`## ${SEED_004_SECTIONS[4]}`));
    expect(active).toContain(`${LAST_REQUEST_PREFIX}Now document it in README.md`);
  });

  it('extracts files, failures and constraints from the log', async () => {
    const r = await extractiveSummarizer().summarize(
      buildSummaryRequest(plan(entries(session), { keepNone: true })),
    );
    expect(r.details.filesModified).toEqual(['src/auth/token-store.ts', 'src/auth/retry.ts']);
    // The failed edit did not modify expiry.ts.
    expect(r.details.filesRead).toEqual(['src/auth/index.ts', 'src/auth/expiry.ts']);
    // Each failure with why it failed: the exit code and the output's error lines.
    expect(r.details.failedCommands).toEqual([
      'npm test → exit 1: FAIL',
      'Edit src/auth/expiry.ts → error: old_string not found',
    ]);
    expect(r.details.constraints).toEqual(['Never push to main.']);
    expect(r.text).toContain('- Modified: src/auth/token-store.ts, src/auth/retry.ts');
    expect(r.text).toContain('- Read: src/auth/index.ts, src/auth/expiry.ts');
    expect(r.text).toContain('Open failures (the last attempt failed; nothing fixed it since):');
    expect(r.text).toContain('- `npm test` → exit 1: FAIL');
    expect(r.text).toContain('- 2. Also add a retry limit of 7.');
    expect(r.text).toContain('After request 2 (Write×1):\n- Added.');
  });

  it('timeline headings: a turn opened by a notification stays on the request before it', () => {
    const notice: Message = {
      role: 'user',
      parts: [{ type: 'text', text: '<task-notification>background task b1 finished</task-notification>' }],
    };
    const r = summarizeExtractive(
      buildSummaryRequest(
        plan(
          entries([
            user('Refactor the parser.'),
            assistant('Reading the parser first.', tool('Read', { file_path: 'src/parser.ts' }, 'x')),
            notice,
            assistant('The background build finished; the parser compiles again.'),
            user('Now add a test.'),
            assistant('Added the test.'),
          ]),
          { keepNone: true },
        ),
      ),
      4_000,
      estimator,
    );
    expect(r.text).toContain('After request 1 (Read×1):\n- Reading the parser first.');
    expect(r.text).toContain('Still on request 1:\n- The background build finished');
    expect(r.text).not.toContain('Before the first request');
  });

  it('gives a summarizer that read other spans before the summary a new one gives (its memo of texts)', async () => {
    const longer = [...session, ...session.map((m, i) => (i % 3 === 0 ? user(`Again, step ${i}.`) : m))];
    const first = buildSummaryRequest(plan(entries(session), { keepNone: true }));
    const second = buildSummaryRequest(plan(entries(longer), { keepNone: true }), {
      budget: { tokens: 300 },
    });
    const used = extractiveSummarizer();
    await used.summarize(first);
    await used.summarize(second);
    expect(await used.summarize(second)).toEqual(await extractiveSummarizer().summarize(second));
  });

  it('is deterministic and honours an abort', async () => {
    const request = buildSummaryRequest(plan(entries(session), { keepNone: true }));
    expect(summarizeExtractive(request, 4000, estimator)).toEqual(
      summarizeExtractive(request, 4000, estimator),
    );
    const ac = new AbortController();
    ac.abort();
    await expect(extractiveSummarizer().summarize(request, ac.signal)).rejects.toBeInstanceOf(
      SummaryRejectedError,
    );
  });

  it('respects the budget and covers the whole span when it must cut (coverage beats recency)', () => {
    const msgs: Message[] = [];
    for (let i = 0; i < 400; i++) {
      msgs.push(user(`Request number ${i}: ${'please handle the details of this step '.repeat(6)}`));
      msgs.push(
        assistant(
          `Handled step ${i}. ${'It went fine. '.repeat(10)}`,
          tool('bash', { command: `make step-${i}` }),
        ),
      );
    }
    const r = summarizeExtractive(
      buildSummaryRequest(plan(entries(msgs), { keepNone: true })),
      2_000,
      estimator,
    );
    expect(estimator.text(r.text)).toBeLessThanOrEqual(2_000);
    expect(r.text).toContain('Request number 0:');
    expect(r.text).toContain('Request number 399:');
    // Middle of the span still represented.
    expect(r.text).toMatch(/Request number (19\d|20\d):/);
  });

  it('carries the user instructions into the summary', () => {
    const request = buildSummaryRequest(plan(entries(session), { keepNone: true }), {
      instructions: 'Focus on auth.',
    });
    expect(
      summarizeExtractive(request, 4000, estimator).text.startsWith(
        "User's instructions for this summary: Focus on auth.",
      ),
    ).toBe(true);
  });
});

/** Text the model sees after a compaction: the summary, then the kept tail. */
function contextText(log: TestLog): string {
  const pivot = log.all.findLast((e) => e.kind === 'compaction');
  if (pivot?.kind !== 'compaction') throw new Error('no pivot');
  const from = pivot.pivot.firstKeptId
    ? log.all.findIndex((e) => e.id === pivot.pivot.firstKeptId)
    : log.all.length;
  const tail = log.all.slice(from).flatMap((e) => (e.kind === 'message' ? [JSON.stringify(e.message)] : []));
  return [pivot.pivot.summary, ...tail].join('\n');
}

describe('planted facts survive 1 to 5 consecutive compactions (TESTING.md item 2)', () => {
  it('paths, numbers, a "never" constraint and the latest request verbatim', async () => {
    const summarizer = extractiveSummarizer({ summaryTokens: 4_000 });
    const log = new TestLog();
    let n = 0;
    const filler = (turns: number, extra: Message[] = []) => {
      const msgs: Message[] = [...extra];
      for (let i = 0; i < turns; i++, n++) {
        msgs.push(user(`Task ${n}: look into module m${n}. ${'Some context about it. '.repeat(40)}`));
        msgs.push(assistant('', tool('Read', { file_path: `src/m${n}/index.ts` }, 'z'.repeat(12_000))));
        msgs.push(
          assistant(
            `Module m${n} looks fine. ${'Notes. '.repeat(60)}`,
            tool('bash', { command: `npm test -- m${n}` }),
          ),
        );
      }
      log.append(msgs);
    };
    filler(0, [
      user('We are building the billing service. Never push to main, always open a pull request.'),
      assistant(
        '',
        tool('Edit', { file_path: 'src/billing/invoice-store.ts', old_string: 'a', new_string: 'b' }),
      ),
    ]);
    filler(6);
    filler(0, [user('Set the retry limit to 7 and the cache TTL to 86400 seconds.'), assistant('Done.')]);
    for (let k = 1; k <= 5; k++) {
      filler(8);
      const latest = `Next, profile module m${n - 1} and report the p95 latency (round ${k}).`;
      log.append([user(latest), assistant('On it.')]);
      const p = plan(log.all);
      const r = await summarizer.summarize(buildSummaryRequest(p));
      expect(estimator.text(r.text)).toBeLessThanOrEqual(4_000);
      log.pivot(p, r.text, r.details, 'extractive');
      const context = contextText(log);
      expect(context, `after ${k} compaction(s)`).toContain('src/billing/invoice-store.ts');
      expect(context).toContain('Never push to main, always open a pull request.');
      expect(context).toContain('retry limit to 7');
      expect(context).toContain('86400');
      // The latest request reaches the model verbatim exactly once: in the kept tail, or else in
      // the summary's last line.
      expect(context).toContain(latest);
      if (p.requestInTail) expect(r.text).not.toContain(`${LAST_REQUEST_PREFIX}${latest}`);
      else expect(r.text).toContain(`${LAST_REQUEST_PREFIX}${latest}`);
      if (process.env.SHOW && k === 5) console.log(r.text, estimator.text(r.text));
    }
  });
});
