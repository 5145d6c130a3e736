/**
 * The quality gate every summary passes before it is stored: probes of the latest request, the
 * modified files, the open failures and key values, completed from the session's facts when a
 * summary misses them; a summary that fails, is empty, or is not smaller than what it replaces is
 * replaced by the extractive one (event 'compaction:fallback'), and the user's call goes on.
 */
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { COMPLETION_HEADING, gateSummary, llmSummarizer } from '../../src/compact/index.js';
import { openSession, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, reply, say, toolRun, user } from '../presets/support.js';

const REQUEST = 'Rename getUser to fetchUser everywhere, but never touch src/legacy.ts';
const FILE = 'src/users/service.ts';
const count = (t: string) => Math.ceil(t.length / 4);

describe('gateSummary (pure)', () => {
  const details = { filesRead: [], filesModified: [FILE], failedCommands: ['npm test → 2 failing'] };
  const input = (text: string, tokens = 1_000, replaced = 5_000) => ({
    result: { text, details },
    replacedTokens: replaced,
    tailText: '',
    latestRequest: REQUEST,
    budget: { tokens, count },
  });

  it('completes a summary missing the latest request, a modified file and an open failure', () => {
    const verdict = gateSummary(input('The user asked for a rename; work is under way.'));
    if (!verdict.ok) throw new Error(verdict.detail);
    expect(verdict.completed).toEqual(['latest request', `modified file ${FILE}`, 'open failure npm test']);
    expect(verdict.result.text).toContain(COMPLETION_HEADING);
    expect(verdict.result.text).toContain(REQUEST);
    expect(verdict.result.text).toContain(FILE);
    expect(count(verdict.result.text)).toBeLessThanOrEqual(1_000);
  });

  it('leaves a summary that carries everything as it is', () => {
    const text = `Working on: ${REQUEST}. Changed ${FILE}; npm test still fails.`;
    expect(gateSummary(input(text))).toMatchObject({ ok: true, completed: [], result: { text } });
  });

  it('refuses an empty summary, one not smaller than what it replaces, and one it cannot complete within budget', () => {
    expect(gateSummary(input('  '))).toMatchObject({ ok: false, reason: 'empty' });
    expect(gateSummary(input('x'.repeat(40_000), 20_000, 5_000))).toMatchObject({
      ok: false,
      reason: 'not-smaller',
    });
    expect(gateSummary(input('A summary.', 20))).toMatchObject({ ok: false, reason: 'probes' });
  });
});

const options = (summarizer: ReturnType<typeof llmSummarizer>, extra = {}): SessionOptions => ({
  model: 'm',
  limits: { contextWindow: 20_000, maxOutput: 1_000 },
  prune: false,
  compaction: { summarizer, ...extra },
});

async function compacted(doGenerate: LanguageModelV3GenerateResult, extra = {}) {
  const model = new MockLanguageModelV3({ doGenerate });
  const session = await openSession(memoryStore(), 's', options(llmSummarizer({ model }), extra));
  const fallbacks: string[] = [];
  session.on('compaction:fallback', (e) => fallbacks.push(e.reason));
  await session.append([
    user(REQUEST),
    act(toolRun('edit', { path: FILE, old: 'getUser', new: 'fetchUser' }, 2_000)),
    act(toolRun('grep', { pattern: 'getUser' }, 3_000)),
    say('Edited the service; grep finds 11 more uses.'),
  ]);
  await session.append([user('Keep going with the controllers'), say('On it.')]);
  const outcome = await session.compact();
  if (outcome.status !== 'compacted') throw new Error(outcome.reason);
  return { outcome, fallbacks, model };
}

describe('the gate on an LLM summary (AI SDK mock model)', () => {
  it('a summary without the facts (appendix off) is completed from them, and stored as the model wrote it plus the completion', async () => {
    const { outcome, fallbacks } = await compacted(
      reply('The user is renaming a function across the codebase.'),
      {
        appendix: false,
      },
    );
    expect(fallbacks).toEqual([]);
    expect(outcome.pivot.pivot.summarizer).toBe('llm');
    expect(outcome.summary).toContain('The user is renaming a function across the codebase.');
    expect(outcome.summary).toContain(COMPLETION_HEADING);
    expect(outcome.summary).toContain(FILE);
    // The latest request is in the kept tail, so the summary need not repeat it.
    expect(outcome.summary).not.toContain('Keep going with the controllers');
  });

  it.each([
    [
      'a tool call instead of text',
      {
        ...reply(''),
        content: [{ type: 'tool-call' as const, toolCallId: 't', toolName: 'bash', input: '{}' }],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
      },
      'failed',
    ],
    ['empty text', reply(''), 'failed'],
    ['more tokens than it replaces', reply('An overlong summary. '.repeat(5_000)), 'not-smaller'],
  ])('%s: the extractive summary is written instead, with the reason', async (_label, doGenerate, reason) => {
    const { outcome, fallbacks, model } = await compacted(doGenerate);
    expect(model.doGenerateCalls.length).toBeGreaterThan(0);
    expect(fallbacks).toEqual([reason]);
    expect(outcome.pivot.pivot.summarizer).toBe('extractive');
    expect(outcome.summary).toContain(REQUEST);
    expect(outcome.summary).not.toContain('An overlong summary.');
  });

  it('with fallback off, the same failure is the caller’s error and nothing is written', async () => {
    await expect(compacted(reply(''), { fallback: false })).rejects.toThrow(/summary rejected/);
  });
});
