import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { isContextOverflowError, overflowPromptTokens } from '../../src/compact/overflow-error.js';

/** An AI SDK APICallError as the openai-compatible / anthropic providers throw it. */
function apiError(statusCode: number, body: unknown, message?: string): APICallError {
  const responseBody = typeof body === 'string' ? body : JSON.stringify(body);
  return new APICallError({
    message: message ?? (typeof body === 'string' ? body : 'Bad Request'),
    url: 'https://api.example.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseBody,
    data: typeof body === 'string' ? undefined : body,
  });
}

// Real messages, as reported in the providers' and their users' public issue trackers.
const overflows: Array<[string, unknown]> = [
  [
    'OpenAI chat (context_length_exceeded)',
    apiError(400, {
      error: {
        message:
          "This model's maximum context length is 4097 tokens. However, you requested 4120 tokens (3120 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    }),
  ],
  [
    'OpenAI Responses',
    apiError(400, {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
        param: 'input',
      },
    }),
  ],
  [
    'OpenAI, code only',
    { statusCode: 400, data: { error: { code: 'context_length_exceeded', message: 'Bad request' } } },
  ],
  [
    'Anthropic prompt too long',
    apiError(400, {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 208656 tokens > 200000 maximum' },
    }),
  ],
  [
    'Anthropic input + max_tokens',
    new Error(
      'input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again',
    ),
  ],
  [
    'Anthropic 413 request_too_large',
    apiError(413, { error: { type: 'request_too_large', message: 'Request exceeds the maximum size' } }),
  ],
  [
    'Gemini',
    apiError(400, {
      error: {
        code: 400,
        message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
        status: 'INVALID_ARGUMENT',
      },
    }),
  ],
  ['Ollama', apiError(400, { error: 'the input length exceeds the context length' })],
  [
    'Ollama, shift false',
    new Error('the prompt is longer than the context length currently available to the model'),
  ],
  [
    'vLLM',
    apiError(400, {
      object: 'error',
      message:
        "This model's maximum context length is 6048 tokens. However, you requested 6616 tokens (568 in the messages, 6048 in the completion). Please reduce the length of the messages or completion.",
      type: 'BadRequestError',
      code: 400,
    }),
  ],
  [
    'llama.cpp',
    apiError(400, {
      error: {
        code: 400,
        message: 'request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 4390,
        n_ctx: 4096,
      },
    }),
  ],
  [
    'llama.cpp (older, 500)',
    apiError(500, {
      error: {
        code: 500,
        message:
          'the request exceeds the available context size. try increasing the context size or enable context shift',
        type: 'exceed_context_size_error',
      },
    }),
  ],
  ['HTTP 413 from a proxy', apiError(413, '<html><body>413 Request Entity Too Large</body></html>')],
  ['a plain status 413', { status: 413 }],
  [
    'wrapped in an AI SDK RetryError',
    new RetryError({
      message: 'Failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [apiError(400, { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } })],
    }),
  ],
];

const notOverflows: Array<[string, unknown]> = [
  [
    'OpenAI 429 TPM',
    apiError(429, {
      error: {
        message:
          'Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 50000. The input or output tokens must be reduced in order to run successfully.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    }),
  ],
  [
    'OpenAI quota',
    apiError(429, {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        code: 'insufficient_quota',
      },
    }),
  ],
  [
    'Anthropic 429 rate limit',
    apiError(429, {
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message:
          'This request would exceed the rate limit for your organization of 40,000 input tokens per minute. Please reduce the prompt length or the maximum tokens requested, or try again later.',
      },
    }),
  ],
  [
    'Anthropic overloaded',
    apiError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
  ],
  [
    'Gemini quota (mentions input_token_count)',
    new Error(
      'You exceeded your current quota. * Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 0',
    ),
  ],
  [
    'Gemini 429',
    apiError(429, {
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        status: 'RESOURCE_EXHAUSTED',
      },
    }),
  ],
  ['timeout', new Error('Request timed out.')],
  ['abort by timeout', new DOMException('The operation was aborted due to timeout', 'TimeoutError')],
  ['ETIMEDOUT', Object.assign(new Error('connect ETIMEDOUT 1.2.3.4:443'), { code: 'ETIMEDOUT' })],
  ['504', apiError(504, 'Gateway Timeout')],
  [
    'an unrelated 400',
    apiError(400, { error: { message: 'Invalid value for temperature', code: 'invalid_value' } }),
  ],
  [
    'Anthropic output cap',
    apiError(400, {
      error: {
        message:
          'max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4',
      },
    }),
  ],
  ['null', null],
  ['a string', 'something went wrong'],
];

describe('isContextOverflowError', () => {
  it.each(overflows)('recognizes %s', (_name, err) => {
    expect(isContextOverflowError(err)).toBe(true);
  });
  it.each(notOverflows)('does not take %s for an overflow', (_name, err) => {
    expect(isContextOverflowError(err)).toBe(false);
  });
});

describe('overflowPromptTokens', () => {
  it.each([
    ['prompt is too long: 208000 tokens > 200000 maximum', 208_000],
    [
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9,001 tokens. Please reduce the length of the messages.",
      9_001,
    ],
    [
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4500 in the messages, 500 in the completion).",
      4_500,
    ],
    ['The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', 1_200_000],
    [
      '{"error":{"code":400,"message":"the request exceeds the available context size","n_prompt_tokens":9000}}',
      9_000,
    ],
  ])('reads the prompt size the provider reported: %s', (message, tokens) => {
    expect(overflowPromptTokens(new Error(message))).toBe(tokens);
  });

  it('says nothing when the error gives no number', () => {
    expect(overflowPromptTokens(new Error('context length exceeded'))).toBeUndefined();
  });
});
