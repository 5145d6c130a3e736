import { InputError } from '../model/errors.js';
import type { Usage } from '../model/session.js';

/**
 * One converter per provider usage shape, each turning the provider's own fields into condense's
 * `Usage`, where `inputTotal` is the whole prompt with cached tokens inside it (counted once) and
 * `output` is everything generated, reasoning included.
 */
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A token count at `path.key`: a finite non-negative number; null/absent is 0 unless required. */
export function num(o: Obj, key: string, path: string, required = false): number {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new InputError(`usage field is missing`, { field: join(path, key) });
    return 0;
  }
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new InputError(`expected a non-negative token count, got ${JSON.stringify(v)}`, {
      field: join(path, key),
    });
  }
  return v;
}

/** A count that may be absent (undefined), as AI SDK fields are. */
export function opt(o: Obj | undefined, key: string, path: string): number | undefined {
  if (!o || o[key] === undefined || o[key] === null) return undefined;
  return num(o, key, path);
}

export function sub(o: Obj, key: string, path: string): Obj | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) throw new InputError('expected an object', { field: join(path, key) });
  return v;
}

export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

export function usage(
  inputTotal: number,
  cacheRead: number,
  cacheWrite: number,
  output: number,
  reasoning: number,
): Usage {
  return { inputTotal, cacheRead, cacheWrite, output, reasoning };
}

/** Cached tokens are a share of an inclusive prompt total; more than the total means bad data. */
function checkInclusive(u: Usage, path: string, cachedField: string): Usage {
  if (u.cacheRead + u.cacheWrite > u.inputTotal) {
    throw new InputError(
      `cached tokens (${u.cacheRead + u.cacheWrite}) exceed the prompt total (${u.inputTotal})`,
      { field: join(path, cachedField) },
    );
  }
  return u;
}

/** OpenAI Chat Completions (and compatible servers): prompt_tokens already includes cached tokens. */
export function fromOpenAIChat(o: Obj, path: string): Usage {
  const prompt = num(o, 'prompt_tokens', path, true);
  const completion = num(o, 'completion_tokens', path, true);
  const pd = sub(o, 'prompt_tokens_details', path);
  const cd = sub(o, 'completion_tokens_details', path);
  const pdPath = join(path, 'prompt_tokens_details');
  // DeepSeek reports its cache hits beside the details object.
  const cached = opt(pd, 'cached_tokens', pdPath) ?? num(o, 'prompt_cache_hit_tokens', path);
  const written = opt(pd, 'cache_write_tokens', pdPath) ?? 0;
  const reasoning = opt(cd, 'reasoning_tokens', join(path, 'completion_tokens_details')) ?? 0;
  // Some compatible servers (xAI) leave reasoning out of completion_tokens; total_tokens shows it.
  const total = opt(o, 'total_tokens', path);
  const excludesReasoning =
    reasoning > completion || (reasoning > 0 && total === prompt + completion + reasoning);
  const output = excludesReasoning ? completion + reasoning : completion;
  return checkInclusive(
    usage(prompt, cached, written, output, reasoning),
    path,
    'prompt_tokens_details.cached_tokens',
  );
}

/** OpenAI Responses API: input_tokens includes cached tokens, output_tokens includes reasoning. */
export function fromOpenAIResponses(o: Obj, path: string): Usage {
  const input = num(o, 'input_tokens', path, true);
  const output = num(o, 'output_tokens', path, true);
  const cached =
    opt(sub(o, 'input_tokens_details', path), 'cached_tokens', join(path, 'input_tokens_details')) ?? 0;
  const od = sub(o, 'output_tokens_details', path);
  const reasoning = opt(od, 'reasoning_tokens', join(path, 'output_tokens_details')) ?? 0;
  return checkInclusive(
    usage(input, cached, 0, Math.max(output, reasoning), reasoning),
    path,
    'input_tokens_details.cached_tokens',
  );
}

/** Codex CLI token_count usage: input_tokens includes cached_input_tokens, output includes reasoning. */
export function fromCodex(o: Obj, path: string): Usage {
  const input = num(o, 'input_tokens', path, true);
  const output = num(o, 'output_tokens', path, true);
  const cached = num(o, 'cached_input_tokens', path);
  const reasoning = num(o, 'reasoning_output_tokens', path);
  return checkInclusive(
    usage(input, cached, 0, Math.max(output, reasoning), reasoning),
    path,
    'cached_input_tokens',
  );
}

/**
 * Anthropic Messages: input_tokens counts only what follows the last cache breakpoint, so the
 * prompt is input + cache read + cache creation. output_tokens includes thinking.
 */
export function fromAnthropic(o: Obj, path: string): Usage {
  const input = num(o, 'input_tokens', path, true);
  const output = num(o, 'output_tokens', path, true);
  const read = num(o, 'cache_read_input_tokens', path);
  let written = num(o, 'cache_creation_input_tokens', path);
  const creation = sub(o, 'cache_creation', path);
  if (written === 0 && creation) {
    const cpath = join(path, 'cache_creation');
    written =
      num(creation, 'ephemeral_5m_input_tokens', cpath) + num(creation, 'ephemeral_1h_input_tokens', cpath);
  }
  return usage(input + read + written, read, written, output, 0);
}

/**
 * Gemini usageMetadata: promptTokenCount includes cachedContentTokenCount; candidatesTokenCount
 * excludes thoughtsTokenCount. Tool-use prompt tokens are prompt the model read for this call.
 */
export function fromGemini(o: Obj, path: string): Usage {
  const prompt = num(o, 'promptTokenCount', path, true) + num(o, 'toolUsePromptTokenCount', path);
  const cached = num(o, 'cachedContentTokenCount', path);
  const thoughts = num(o, 'thoughtsTokenCount', path);
  const output = num(o, 'candidatesTokenCount', path) + thoughts;
  return checkInclusive(usage(prompt, cached, 0, output, thoughts), path, 'cachedContentTokenCount');
}

/** Gemini CLI session messages: `tokens: {input, output, cached, thoughts, tool, total}`, Gemini semantics. */
export function fromGeminiCli(o: Obj, path: string): Usage {
  const input = num(o, 'input', path, true) + num(o, 'tool', path);
  const thoughts = num(o, 'thoughts', path);
  const output = num(o, 'output', path, true) + thoughts;
  return checkInclusive(usage(input, num(o, 'cached', path), 0, output, thoughts), path, 'cached');
}
