import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { HANDOVER_HEADING } from '../../src/compact/handover/index.js';
import {
  buildSummaryRequest,
  LAST_REQUEST_PREFIX,
  SEED_001_SYSTEM_PROMPT,
  SEED_004_PROMPT,
} from '../../src/compact/input.js';
import { CHUNK_PROMPT, llmSummarizer } from '../../src/compact/llm.js';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { SummaryRejectedError } from '../../src/compact/summarizer.js';
import type { Message } from '../../src/model/message.js';
import { assistant, entries, estimator, tool, user } from './helpers.js';

type Finish = LanguageModelV3GenerateResult['finishReason']['unified'];
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
function reply(text: string, finish: Finish = 'stop'): LanguageModelV3GenerateResult {
  return {
    content: text === '' ? [] : [{ type: 'text', text }],
    finishReason: { unified: finish, raw: finish },
    usage,
    warnings: [],
  };
}

function request(messages: Message[] = [user('Fix the login bug in src/auth.ts'), assistant('Looking.')]) {
  const plan = planCompaction(entries(messages), { keepNone: true });
  if (isNothingToCompact(plan)) throw new Error(plan.reason);
  return buildSummaryRequest(plan);
}

/** Text of every prompt message of a call, as sent. */
function promptText(call: LanguageModelV3CallOptions): string {
  return call.prompt
    .flatMap((m) =>
      typeof m.content === 'string' ? [m.content] : m.content.flatMap((p) => ('text' in p ? [p.text] : [])),
    )
    .join('\n');
}

describe('llm summarizer', () => {
  it('its handover block carries what a model may drop: requests, commands with outcome, decisions, next step', async () => {
    const model = new MockLanguageModelV3({ doGenerate: reply('A short summary.') });
    const result = await llmSummarizer({ model, contextWindow: 100_000 }).summarize(
      request([
        user('Fix the login bug in src/auth.ts. Use bcrypt instead of md5.'),
        assistant(
          '',
          tool('bash', { command: 'npm test' }, 'Exit code 1\nAssertionError: expected 500 to be 200'),
        ),
        assistant('', tool('bash', { command: 'npm test' }, 'Tests 9 passed')),
        user('Now document it'),
        assistant('Next, I will update README.md.'),
      ]),
    );
    expect(result.text.startsWith('A short summary.\n\n')).toBe(true);
    const block = result.text.slice(result.text.indexOf(HANDOVER_HEADING));
    expect(block).toContain(
      'User requests, oldest first, verbatim:\n- 1. Fix the login bug in src/auth.ts. Use bcrypt instead of md5.\n- 2. (the current task, above)',
    );
    expect(block).toContain('- `npm test` → failed, then fixed');
    expect(block).toContain("User's decisions (verbatim):\n- Use bcrypt instead of md5.");
    expect(block).toContain(
      'Next step:\n- Next, I will update README.md. (what the agent said it would do next)',
    );
    expect(block).toContain(`${LAST_REQUEST_PREFIX}Now document it`);
  });

  it('stop: sends the seed prompts with no tools, and appends the handover block', async () => {
    const model = new MockLanguageModelV3({ doGenerate: reply('The user wants the login bug fixed.') });
    const summarizer = llmSummarizer({ model, contextWindow: 100_000 });
    const result = await summarizer.summarize(request());
    expect(summarizer.name).toBe('llm');
    expect(summarizer.model).toBe('mock-model-id');
    expect(result.text.startsWith('The user wants the login bug fixed.\n\n')).toBe(true);
    expect(result.text).toContain(`\n\n${HANDOVER_HEADING}\n`);
    expect(result.text).toContain(`${LAST_REQUEST_PREFIX}Fix the login bug in src/auth.ts`);
    const call = model.doGenerateCalls[0]!;
    expect(call.tools ?? []).toEqual([]);
    expect(call.prompt[0]).toEqual({ role: 'system', content: SEED_001_SYSTEM_PROMPT });
    expect(call.prompt).toHaveLength(2);
    expect(promptText(call)).toContain('User: Fix the login bug in src/auth.ts');
    expect(promptText(call).endsWith(SEED_004_PROMPT)).toBe(true);
  });

  it.each([
    ['length', reply('A summary cut off in the mid', 'length'), 'length'],
    ['content-filter', reply('', 'content-filter'), 'content-filter'],
    ['error', reply('Internal error', 'error'), 'error'],
    ['empty', reply('   '), 'empty'],
    ['refusal', reply("I'm sorry, but I can't help with summarizing this conversation."), 'refusal'],
    ['refusal (plain)', reply('I cannot assist with that request.'), 'refusal'],
  ] as const)('%s is rejected', async (_label, result, reason) => {
    const summarizer = llmSummarizer({ model: new MockLanguageModelV3({ doGenerate: result }) });
    await expect(summarizer.summarize(request())).rejects.toMatchObject({
      name: 'SummaryRejectedError',
      reason,
    });
  });

  it('tool-calls are rejected', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'bash', input: '{"command":"ls"}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage,
        warnings: [],
      },
    });
    await expect(llmSummarizer({ model }).summarize(request())).rejects.toMatchObject({
      reason: 'tool-calls',
    });
  });

  it('a throwing model is rejected with the cause kept; a provider overflow is "too-large"', async () => {
    const boom = new Error('socket hang up');
    const thrower = new MockLanguageModelV3({
      doGenerate: async () => {
        throw boom;
      },
    });
    const err = await llmSummarizer({ model: thrower, maxRetries: 0 })
      .summarize(request())
      .catch((e) => e);
    expect(err).toBeInstanceOf(SummaryRejectedError);
    expect(err).toMatchObject({ reason: 'error', cause: boom });
    const overflow = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('prompt is too long: 208656 tokens > 200000 maximum');
      },
    });
    await expect(
      llmSummarizer({ model: overflow, maxRetries: 0 }).summarize(request()),
    ).rejects.toMatchObject({
      reason: 'too-large',
    });
  });

  it('an abort rejects with "aborted", before or during the call', async () => {
    const hang = new MockLanguageModelV3({
      doGenerate: ({ abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)),
        ),
    });
    const ac = new AbortController();
    const pending = llmSummarizer({ model: hang }).summarize(request(), ac.signal);
    setTimeout(() => ac.abort(), 5);
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
    const before = new MockLanguageModelV3({ doGenerate: reply('never') });
    await expect(
      llmSummarizer({ model: before }).summarize(request(), AbortSignal.abort()),
    ).rejects.toMatchObject({
      reason: 'aborted',
    });
    expect(before.doGenerateCalls).toHaveLength(0);
  });

  it('a window smaller than the input: map-reduce, and every call fits the window', async () => {
    const messages: Message[] = [];
    for (let i = 0; i < 40; i++) {
      messages.push(user(`Request ${i}: ${'please look at the parser and the lexer. '.repeat(30)}`));
      messages.push(
        assistant(`Answer ${i}`, tool('bash', { command: `npm test -- ${i}` }, `${'log line '.repeat(200)}`)),
      );
    }
    const req = request(messages);
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => reply(`partial summary ${++calls}: ${'detail '.repeat(100)}`),
    });
    const contextWindow = 6_000;
    const result = await llmSummarizer({ model, contextWindow, maxOutputTokens: 1_000 }).summarize(req);
    expect(estimator.text(req.transcript)).toBeGreaterThan(contextWindow * 3);
    expect(model.doGenerateCalls.length).toBeGreaterThan(4);
    for (const call of model.doGenerateCalls) {
      expect(estimator.text(promptText(call)) + 1_000).toBeLessThanOrEqual(contextWindow);
      expect(call.maxOutputTokens).toBe(1_000);
    }
    // Chunks use the chunk prompt; the final combination uses the seed prompt.
    expect(promptText(model.doGenerateCalls[0]!).endsWith(CHUNK_PROMPT)).toBe(true);
    expect(promptText(model.doGenerateCalls.at(-1)!).endsWith(SEED_004_PROMPT)).toBe(true);
    expect(result.text.startsWith(`partial summary ${calls}:`)).toBe(true);
    // Every chunk of the transcript reached some call.
    const sent = model.doGenerateCalls.map(promptText).join('\n');
    for (let i = 0; i < 40; i++) expect(sent).toContain(`Request ${i}:`);
  });

  it('a window too small for two partial summaries is refused up front', async () => {
    const model = new MockLanguageModelV3({ doGenerate: reply('x') });
    const big = request([user('y'.repeat(40_000))]);
    await expect(
      llmSummarizer({ model, contextWindow: 4_000, maxOutputTokens: 2_000 }).summarize(big),
    ).rejects.toMatchObject({
      reason: 'too-large',
    });
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});
