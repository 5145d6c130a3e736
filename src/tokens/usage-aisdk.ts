import { InputError } from '../model/errors.js';
import type { Usage } from '../model/session.js';
import { isObj, join, num, type Obj, opt, sub, usage } from './usage-shapes.js';

export interface AiSdkHints {
  /**
   * AI SDK 5 reported Anthropic's `inputTokens` without cached tokens (and `cachedInputTokens`
   * beside it); AI SDK 6 reports the inclusive total. A v5-shaped usage object (no
   * `inputTokenDetails`) is read as inclusive unless this says otherwise or the cached count
   * exceeds the input count.
   */
  legacyInputExcludesCache?: boolean;
}

/**
 * AI SDK usage: v6 `LanguageModelUsage` (inputTokens = whole prompt, with inputTokenDetails), the
 * provider-level V3 shape (inputTokens: {total, noCache, cacheRead, cacheWrite}), v5 (flat, with
 * cachedInputTokens / reasoningTokens) and v4 (promptTokens / completionTokens).
 */
export function fromAiSdk(o: Obj, path: string, hints: AiSdkHints = {}): Usage {
  if ('promptTokens' in o || 'completionTokens' in o) {
    return usage(num(o, 'promptTokens', path, true), 0, 0, num(o, 'completionTokens', path, true), 0);
  }
  const nestedIn = isObj(o.inputTokens) ? o.inputTokens : undefined;
  const nestedOut = isObj(o.outputTokens) ? o.outputTokens : undefined;
  const inPath = nestedIn ? join(path, 'inputTokens') : join(path, 'inputTokenDetails');
  const outPath = nestedOut ? join(path, 'outputTokens') : join(path, 'outputTokenDetails');
  const inDetails = nestedIn ?? sub(o, 'inputTokenDetails', path);
  const outDetails = nestedOut ?? sub(o, 'outputTokenDetails', path);

  const total = nestedIn ? opt(nestedIn, 'total', inPath) : opt(o, 'inputTokens', path);
  const noCache = opt(inDetails, nestedIn ? 'noCache' : 'noCacheTokens', inPath);
  let read =
    opt(inDetails, nestedIn ? 'cacheRead' : 'cacheReadTokens', inPath) ??
    opt(o, 'cachedInputTokens', path) ??
    0;
  const written = opt(inDetails, nestedIn ? 'cacheWrite' : 'cacheWriteTokens', inPath) ?? 0;

  let inputTotal: number;
  if (total !== undefined) {
    inputTotal = total;
    const legacy = inDetails === undefined;
    if (legacy && (hints.legacyInputExcludesCache || read > total)) inputTotal = total + read;
  } else if (noCache !== undefined) {
    inputTotal = noCache + read + written;
  } else {
    throw new InputError('usage has no input token count', {
      field: nestedIn ? join(inPath, 'total') : join(path, 'inputTokens'),
    });
  }
  if (read + written > inputTotal) read = Math.max(0, inputTotal - written);

  const outTotal = nestedOut ? opt(nestedOut, 'total', outPath) : opt(o, 'outputTokens', path);
  const text = opt(outDetails, nestedOut ? 'text' : 'textTokens', outPath);
  const reasoning =
    opt(outDetails, nestedOut ? 'reasoning' : 'reasoningTokens', outPath) ??
    opt(o, 'reasoningTokens', path) ??
    0;
  const output = outTotal ?? (text !== undefined ? text + reasoning : undefined);
  if (output === undefined) {
    throw new InputError('usage has no output token count', {
      field: nestedOut ? join(outPath, 'total') : join(path, 'outputTokens'),
    });
  }
  return usage(inputTotal, read, written, Math.max(output, reasoning), reasoning);
}
