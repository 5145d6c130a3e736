import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { extractiveSummarizer } from '../../src/compact/extractive.js';
import { buildSummaryRequest } from '../../src/compact/input.js';
import { llmSummarizer } from '../../src/compact/llm.js';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import type { Message } from '../../src/model/message.js';
import { assistant, entries, estimator, tool, user } from './helpers.js';

const HUGE = `BEGIN ${'0123456789abcdef'.repeat(93_750)} END`; // 1.5M characters

function session(): Message[] {
  return [
    user('Find why the nightly export is slow; the log is in /var/log/export.log'),
    assistant('Reading the log.', tool('bash', { command: 'cat /var/log/export.log' }, HUGE)),
    assistant('The export spends its time in the dedupe step.'),
    user('Make the dedupe step streaming.'),
    assistant('', tool('Edit', { file_path: 'src/export/dedupe.ts', old_string: 'a', new_string: 'b' })),
    user('Run the benchmark again.'),
    assistant('Running.'),
  ];
}

function promptText(call: LanguageModelV3CallOptions): string {
  return call.prompt
    .flatMap((m) =>
      typeof m.content === 'string' ? [m.content] : m.content.flatMap((p) => ('text' in p ? [p.text] : [])),
    )
    .join('\n');
}

describe('a session with a single 1.5M-character tool output compacts (TESTING.md item 3)', () => {
  it('with the extractive summarizer, within budget', async () => {
    expect(HUGE.length).toBeGreaterThanOrEqual(1_500_000);
    const plan = planCompaction(entries(session()), { keepTokens: 20 });
    if (isNothingToCompact(plan)) throw new Error(plan.reason);
    const r = await extractiveSummarizer({ summaryTokens: 2_000 }).summarize(buildSummaryRequest(plan));
    expect(estimator.text(r.text)).toBeLessThanOrEqual(2_000);
    expect(r.text).not.toContain('0123456789abcdef'.repeat(100));
    expect(r.details.filesRead).toContain('/var/log/export.log');
    expect(r.details.filesModified).toContain('src/export/dedupe.ts');
  });

  it('with an LLM whose window is 16k tokens: the output is shortened, no call exceeds the window', async () => {
    const plan = planCompaction(entries(session()), { keepNone: true });
    if (isNothingToCompact(plan)) throw new Error(plan.reason);
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [
          { type: 'text', text: 'The export is slow in dedupe; made it streaming; benchmark pending.' },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      },
    });
    const r = await llmSummarizer({ model, contextWindow: 16_000, maxOutputTokens: 2_000 }).summarize(
      buildSummaryRequest(plan),
    );
    expect(r.text.startsWith('The export is slow in dedupe')).toBe(true);
    for (const call of model.doGenerateCalls) {
      const sent = promptText(call);
      expect(estimator.text(sent) + 2_000).toBeLessThanOrEqual(16_000);
      expect(sent).toContain('BEGIN 0123');
      expect(sent).toContain('cdef END');
    }
  });
});
