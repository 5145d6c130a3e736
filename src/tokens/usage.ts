import { InputError } from '../model/errors.js';
import type { Usage } from '../model/session.js';
import { type AiSdkHints, fromAiSdk } from './usage-aisdk.js';
import {
  fromAnthropic,
  fromCodex,
  fromGemini,
  fromGeminiCli,
  fromOpenAIChat,
  fromOpenAIResponses,
  isObj,
  join,
  type Obj,
} from './usage-shapes.js';

export type UsageShape =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic'
  | 'gemini'
  | 'ai-sdk'
  | 'codex'
  | 'gemini-cli';

export interface NormalizedUsage {
  usage: Usage;
  shape: UsageShape;
  /** Where the usage object was found inside the input ('' when the input was the usage itself). */
  path: string;
}

export type NormalizeUsageOptions = AiSdkHints;

/** Field names that identify a flat usage object, checked in this order (first match wins). */
function detect(o: Obj): UsageShape | undefined {
  const has = (...keys: string[]) => keys.some((k) => k in o);
  if (has('prompt_tokens', 'completion_tokens')) return 'openai-chat';
  if (has('promptTokenCount', 'candidatesTokenCount')) return 'gemini';
  if (has('cached_input_tokens', 'reasoning_output_tokens')) return 'codex';
  if (has('input_tokens_details', 'output_tokens_details')) return 'openai-responses';
  // Without cache fields Anthropic's and OpenAI Responses' input_tokens mean the same thing.
  if (has('input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'))
    return 'anthropic';
  if (has('inputTokens', 'outputTokens', 'inputTokenDetails', 'promptTokens', 'completionTokens'))
    return 'ai-sdk';
  if (has('input') && has('output') && typeof o.input === 'number') return 'gemini-cli';
  return undefined;
}

function convert(shape: UsageShape, o: Obj, path: string, opts: NormalizeUsageOptions): Usage {
  switch (shape) {
    case 'openai-chat':
      return fromOpenAIChat(o, path);
    case 'openai-responses':
      return fromOpenAIResponses(o, path);
    case 'anthropic':
      return fromAnthropic(o, path);
    case 'gemini':
      return fromGemini(o, path);
    case 'ai-sdk':
      return fromAiSdk(o, path, opts);
    case 'codex':
      return fromCodex(o, path);
    case 'gemini-cli':
      return fromGeminiCli(o, path);
  }
}

/**
 * Objects that carry a usage object under a key: provider responses (`usage`, Gemini's
 * `usageMetadata`), AI SDK steps and results (`usage`), Claude Code lines and Anthropic
 * `message_start` events (`message`), OpenAI Responses stream events (`response`), Codex lines
 * (`payload` → `info` → `last_token_usage`) and Gemini CLI messages (`tokens`).
 */
const WRAPPER_KEYS = [
  'usage',
  'usageMetadata',
  'last_token_usage',
  'info',
  'payload',
  'message',
  'response',
  'tokens',
];

function find(v: unknown, path: string, opts: NormalizeUsageOptions, depth: number): NormalizedUsage {
  const field = path || '(root)';
  if (!isObj(v)) {
    throw new InputError(
      `expected a usage object, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`,
      {
        field,
      },
    );
  }
  const shape = detect(v);
  if (shape) return { usage: convert(shape, v, path, opts), shape, path };
  if (depth < 4) {
    for (const key of WRAPPER_KEYS) {
      if (!(key in v)) continue;
      if (key === 'info' && v.info === null) {
        throw new InputError('token_count event carries no usage (info is null)', {
          field: join(path, 'info'),
        });
      }
      if (isObj(v[key])) return find(v[key], join(path, key), opts, depth + 1);
    }
    // An AI SDK result with its steps: the latest step is the latest prompt.
    if (Array.isArray(v.steps) && v.steps.length > 0) {
      const last = v.steps.length - 1;
      return find(v.steps[last], join(path, `steps.${last}`), opts, depth + 1);
    }
  }
  if ('totalUsage' in v) {
    throw new InputError('totalUsage sums every step of a run; pass the last step usage (`usage`) instead', {
      field: join(path, 'totalUsage'),
    });
  }
  const keys = Object.keys(v).slice(0, 8).join(', ');
  throw new InputError(
    `unrecognized usage shape (keys: ${keys || 'none'}); expected OpenAI, Anthropic, Gemini, AI SDK, Codex or Gemini CLI usage`,
    { field },
  );
}

/**
 * Normalizes one model call's usage from any supported provider shape, or a response/log line
 * that carries it. Cached tokens are counted once (inside `inputTotal`); usage is never summed
 * across steps (Codex's cumulative `total_token_usage` and AI SDK's `totalUsage` are not read).
 */
export function normalizeUsageDetailed(raw: unknown, opts: NormalizeUsageOptions = {}): NormalizedUsage {
  return find(raw, '', opts, 0);
}

export function normalizeUsage(raw: unknown, opts: NormalizeUsageOptions = {}): Usage {
  return normalizeUsageDetailed(raw, opts).usage;
}

/** The prompt plus the reply of one call: what Qwery, opencode (after normalization) and Mistral Vibe count. */
export function usageTotal(u: Usage): number {
  return u.inputTotal + u.output;
}
