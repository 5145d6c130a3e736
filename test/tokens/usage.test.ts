import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import type { Usage } from '../../src/model/session.js';
import {
  normalizeUsage,
  normalizeUsageDetailed,
  type UsageShape,
  usageTotal,
} from '../../src/tokens/usage.js';

const u = (
  inputTotal: number,
  cacheRead: number,
  cacheWrite: number,
  output: number,
  reasoning: number,
): Usage => ({
  inputTotal,
  cacheRead,
  cacheWrite,
  output,
  reasoning,
});

/** Real response shapes (as the providers document and return them), with what they mean. */
const cases: { name: string; raw: unknown; shape: UsageShape; want: Usage }[] = [
  {
    name: 'OpenAI Chat: prompt_tokens already includes the cached 1,920 (counted once)',
    raw: {
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      choices: [],
      usage: {
        prompt_tokens: 2006,
        completion_tokens: 300,
        total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    },
    shape: 'openai-chat',
    want: u(2006, 1920, 0, 300, 0),
  },
  {
    name: 'OpenAI Chat o-series: reasoning inside completion_tokens',
    raw: {
      prompt_tokens: 1117,
      completion_tokens: 2345,
      total_tokens: 3462,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 1984 },
    },
    shape: 'openai-chat',
    want: u(1117, 0, 0, 2345, 1984),
  },
  {
    name: 'OpenAI-compatible (xAI): reasoning outside completion_tokens, as total_tokens shows',
    raw: {
      prompt_tokens: 2640,
      completion_tokens: 182,
      total_tokens: 3494,
      prompt_tokens_details: { text_tokens: 2640, audio_tokens: 0, image_tokens: 0, cached_tokens: 473 },
      completion_tokens_details: { reasoning_tokens: 672, audio_tokens: 0 },
    },
    shape: 'openai-chat',
    want: u(2640, 473, 0, 854, 672),
  },
  {
    name: 'DeepSeek: prompt = cache hit + miss, hits beside the details',
    raw: {
      prompt_tokens: 1500,
      completion_tokens: 40,
      total_tokens: 1540,
      prompt_cache_hit_tokens: 1280,
      prompt_cache_miss_tokens: 220,
    },
    shape: 'openai-chat',
    want: u(1500, 1280, 0, 40, 0),
  },
  {
    name: 'OpenAI Responses: input_tokens includes cached, output includes reasoning',
    raw: {
      id: 'resp_1',
      object: 'response',
      output: [],
      usage: {
        input_tokens: 5120,
        input_tokens_details: { cached_tokens: 4096 },
        output_tokens: 900,
        output_tokens_details: { reasoning_tokens: 640 },
        total_tokens: 6020,
      },
    },
    shape: 'openai-responses',
    want: u(5120, 4096, 0, 900, 640),
  },
  {
    name: 'OpenAI Responses stream event response.completed',
    raw: {
      type: 'response.completed',
      response: {
        usage: {
          input_tokens: 328,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 52,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 380,
        },
      },
    },
    shape: 'openai-responses',
    want: u(328, 0, 0, 52, 0),
  },
  {
    name: 'Anthropic Messages: input_tokens excludes cache; the prompt is the sum',
    raw: {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      content: [],
      usage: {
        input_tokens: 14,
        cache_creation_input_tokens: 1143,
        cache_read_input_tokens: 63451,
        cache_creation: { ephemeral_5m_input_tokens: 1143, ephemeral_1h_input_tokens: 0 },
        output_tokens: 394,
        service_tier: 'standard',
      },
    },
    shape: 'anthropic',
    want: u(64608, 63451, 1143, 394, 0),
  },
  {
    name: 'Anthropic with only the cache_creation breakdown',
    raw: {
      input_tokens: 10,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 50 },
      output_tokens: 5,
    },
    shape: 'anthropic',
    want: u(160, 0, 150, 5, 0),
  },
  {
    name: 'Anthropic message_start stream event',
    raw: {
      type: 'message_start',
      message: {
        id: 'msg_2',
        usage: {
          input_tokens: 2095,
          cache_creation_input_tokens: 2051,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    },
    shape: 'anthropic',
    want: u(4146, 0, 2051, 1, 0),
  },
  {
    name: 'Gemini response: promptTokenCount includes cache; thoughts are output beside candidates',
    raw: {
      candidates: [],
      modelVersion: 'gemini-2.5-pro',
      usageMetadata: {
        promptTokenCount: 11422,
        candidatesTokenCount: 373,
        totalTokenCount: 12141,
        cachedContentTokenCount: 6190,
        thoughtsTokenCount: 346,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 11422 }],
      },
    },
    shape: 'gemini',
    want: u(11422, 6190, 0, 719, 346),
  },
  {
    name: 'Gemini usageMetadata with tool-use prompt tokens',
    raw: {
      promptTokenCount: 1000,
      toolUsePromptTokenCount: 250,
      candidatesTokenCount: 20,
      totalTokenCount: 1270,
    },
    shape: 'gemini',
    want: u(1250, 0, 0, 20, 0),
  },
  {
    name: 'AI SDK v6 usage from Anthropic: inputTokens is already the whole prompt',
    raw: {
      inputTokens: 64608,
      inputTokenDetails: { noCacheTokens: 14, cacheReadTokens: 63451, cacheWriteTokens: 1143 },
      outputTokens: 394,
      outputTokenDetails: { textTokens: 394, reasoningTokens: undefined },
      totalTokens: 65002,
      cachedInputTokens: 63451,
      raw: {
        input_tokens: 14,
        cache_read_input_tokens: 63451,
        cache_creation_input_tokens: 1143,
        output_tokens: 394,
      },
    },
    shape: 'ai-sdk',
    want: u(64608, 63451, 1143, 394, 0),
  },
  {
    name: 'AI SDK v6 with only the details: noCache + read + write',
    raw: {
      inputTokens: undefined,
      inputTokenDetails: { noCacheTokens: 20, cacheReadTokens: 300, cacheWriteTokens: 5 },
      outputTokens: undefined,
      outputTokenDetails: { textTokens: 7, reasoningTokens: 3 },
    },
    shape: 'ai-sdk',
    want: u(325, 300, 5, 10, 3),
  },
  {
    name: 'AI SDK provider-level V3 usage (nested totals)',
    raw: {
      inputTokens: { total: 900, noCache: 100, cacheRead: 800, cacheWrite: undefined },
      outputTokens: { total: 60, text: 20, reasoning: 40 },
    },
    shape: 'ai-sdk',
    want: u(900, 800, 0, 60, 40),
  },
  {
    name: 'AI SDK v5 (OpenAI): flat, inputTokens includes cachedInputTokens',
    raw: {
      inputTokens: 2006,
      outputTokens: 300,
      totalTokens: 2306,
      cachedInputTokens: 1920,
      reasoningTokens: 0,
    },
    shape: 'ai-sdk',
    want: u(2006, 1920, 0, 300, 0),
  },
  {
    name: 'AI SDK v5 (Anthropic): cached beyond inputTokens means inputTokens excluded it',
    raw: { inputTokens: 14, outputTokens: 394, totalTokens: 408, cachedInputTokens: 63451 },
    shape: 'ai-sdk',
    want: u(63465, 63451, 0, 394, 0),
  },
  {
    name: 'AI SDK v4: promptTokens / completionTokens',
    raw: { promptTokens: 787, completionTokens: 60, totalTokens: 847 },
    shape: 'ai-sdk',
    want: u(787, 0, 0, 60, 0),
  },
  {
    name: 'Claude Code line: message.usage (Anthropic), repeated per content block',
    raw: {
      type: 'assistant',
      uuid: 'dbe2c2c6',
      message: {
        id: 'msg_bdrk_01N6',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'thinking', thinking: '…' }],
        usage: {
          input_tokens: 14,
          cache_creation_input_tokens: 28474,
          cache_read_input_tokens: 28541,
          output_tokens: 3,
        },
      },
    },
    shape: 'anthropic',
    want: u(57029, 28541, 28474, 3, 0),
  },
  {
    name: 'Codex token_count: last_token_usage, never the cumulative total_token_usage',
    raw: {
      timestamp: '2026-05-11T08:27:27.798Z',
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: {
          total_token_usage: {
            input_tokens: 37614,
            cached_input_tokens: 18304,
            output_tokens: 204,
            reasoning_output_tokens: 62,
            total_tokens: 37818,
          },
          last_token_usage: {
            input_tokens: 18911,
            cached_input_tokens: 18304,
            output_tokens: 37,
            reasoning_output_tokens: 0,
            total_tokens: 18948,
          },
          model_context_window: 258400,
        },
        rate_limits: null,
      },
    },
    shape: 'codex',
    want: u(18911, 18304, 0, 37, 0),
  },
  {
    name: 'Gemini CLI message tokens: total = input + output + thoughts (cached inside input)',
    raw: {
      id: 'm1',
      type: 'gemini',
      content: 'ok',
      model: 'gemini-3-pro',
      tokens: { input: 7973, output: 40, cached: 5675, thoughts: 131, tool: 0, total: 8144 },
    },
    shape: 'gemini-cli',
    want: u(7973, 5675, 0, 171, 131),
  },
];

describe('normalizeUsage: real provider shapes', () => {
  it.each(cases)('$name', ({ raw, shape, want }) => {
    const got = normalizeUsageDetailed(raw);
    expect(got.shape).toBe(shape);
    expect(got.usage).toEqual(want);
    // Invariants of the normalized form: the cache is a share of the prompt, reasoning of the output.
    expect(got.usage.cacheRead + got.usage.cacheWrite).toBeLessThanOrEqual(got.usage.inputTotal);
    expect(got.usage.reasoning).toBeLessThanOrEqual(got.usage.output);
  });

  it('counts OpenAI cached tokens once and Anthropic cached tokens at all (same prompt, both providers)', () => {
    const openai = normalizeUsage({
      prompt_tokens: 100_000,
      completion_tokens: 1_000,
      prompt_tokens_details: { cached_tokens: 90_000 },
    });
    const anthropic = normalizeUsage({
      input_tokens: 10_000,
      cache_read_input_tokens: 90_000,
      output_tokens: 1_000,
    });
    expect(usageTotal(openai)).toBe(101_000);
    expect(usageTotal(anthropic)).toBe(101_000);
  });

  it('reads the last step of an AI SDK result, not the sum over its steps', async () => {
    let call = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        call++;
        // What @ai-sdk/anthropic reports: total = input + cache read + cache write.
        const read = call === 1 ? 0 : 5_000;
        return {
          content:
            call === 1
              ? [{ type: 'tool-call', toolCallId: 't1', toolName: 'look', input: '{}' }]
              : [{ type: 'text', text: 'done' }],
          finishReason: { unified: call === 1 ? 'tool-calls' : 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 5_010 + read, noCache: 10, cacheRead: read, cacheWrite: 5_000 },
            outputTokens: { total: 50, text: 50, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const { tool, stepCountIs } = await import('ai');
    const { z } = await import('zod');
    const result = await generateText({
      model,
      prompt: 'hi',
      tools: { look: tool({ inputSchema: z.object({}), execute: async () => 'seen' }) },
      stopWhen: stepCountIs(3),
    });
    expect(result.steps.length).toBe(2);
    const last = u(10_010, 5_000, 5_000, 50, 0);
    expect(normalizeUsage(result.usage)).toEqual(last);
    expect(normalizeUsage(result)).toEqual(last);
    expect(normalizeUsage(result.steps[0])).toEqual(u(5_010, 0, 5_000, 50, 0));
    // The sum over steps is not a prompt size; passing it alone is refused.
    expect(result.totalUsage.inputTokens).toBe(15_020);
    expect(() => normalizeUsage({ totalUsage: result.totalUsage })).toThrow(/totalUsage/);
  });
});

describe('normalizeUsage: bad input names the field', () => {
  const bad: [string, unknown, string][] = [
    ['not an object', 42, '(root)'],
    ['unknown shape', { foo: 1, bar: 2 }, '(root)'],
    [
      'Anthropic message_delta with output only',
      { type: 'message_delta', usage: { output_tokens: 15 } },
      'usage.input_tokens',
    ],
    ['string count', { usage: { prompt_tokens: '12', completion_tokens: 1 } }, 'usage.prompt_tokens'],
    ['negative count', { input_tokens: -1, output_tokens: 2 }, 'input_tokens'],
    [
      'cached above the prompt',
      { prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 20 } },
      'prompt_tokens_details.cached_tokens',
    ],
    [
      'Codex token_count without info',
      { type: 'event_msg', payload: { type: 'token_count', info: null } },
      'payload.info',
    ],
    [
      'AI SDK without any input count',
      { inputTokens: undefined, inputTokenDetails: {}, outputTokens: 3 },
      'inputTokens',
    ],
  ];
  it.each(bad)('%s', (_name, raw, field) => {
    let err: unknown;
    try {
      normalizeUsage(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe(field);
    expect((err as InputError).message).toContain(field);
  });
});
