/**
 * Recognizes a provider's "the prompt is larger than the context window" error, so that the
 * caller compacts once and retries once. Rate limits, quotas and
 * timeouts are not overflows: compacting would not help them.
 */

/** Messages providers really send on overflow (collected from their public issue trackers). */
export const OVERFLOW_PATTERNS: ReadonlyArray<{ provider: string; pattern: RegExp }> = [
  // "This model's maximum context length is 8192 tokens. However, your messages resulted in 8545 tokens."
  // vLLM: "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (...)"
  // OpenRouter: "This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens"
  { provider: 'openai/vllm/openrouter', pattern: /maximum context length is \d+ tokens/i },
  // OpenAI Responses: "Your input exceeds the context window of this model. Please adjust your input and try again."
  { provider: 'openai', pattern: /exceeds the context window/i },
  { provider: 'openai', pattern: /\bcontext[_ ]length[_ ]exceeded\b/i },
  // "prompt is too long: 208656 tokens > 200000 maximum"
  { provider: 'anthropic', pattern: /prompt is too long/i },
  // "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length ..."
  { provider: 'anthropic', pattern: /input length and `?max_tokens`? exceed context limit/i },
  // 413 invalid_request_error: "Request size exceeds model context window"
  { provider: 'anthropic', pattern: /request size exceeds model context window/i },
  // 413: {"type":"request_too_large","message":"Request exceeds the maximum size"}
  { provider: 'anthropic', pattern: /\brequest_too_large\b/i },
  // "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)."
  { provider: 'gemini', pattern: /input token count \(?\d*\)? ?exceeds the maximum number of tokens/i },
  // Ollama: {"error":"the input length exceeds the context length"}
  { provider: 'ollama', pattern: /input length exceeds the context length/i },
  // Ollama with shift:false: "the prompt is longer than the context length currently available to the model"
  { provider: 'ollama', pattern: /prompt is longer than the context length/i },
  // llama.cpp: "the request exceeds the available context size. try increasing the context size ..."
  // and "request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it"
  { provider: 'llama.cpp', pattern: /exceeds the available context size/i },
  { provider: 'llama.cpp', pattern: /\bexceed_context_size_error\b/i },
  // vLLM scheduler: "Input prompt (35247 tokens) is too long and exceeds limit of 1000"
  { provider: 'vllm', pattern: /input prompt \(\d+ tokens\) is too long/i },
  // LM Studio: "... is greater than the context length ..."; Bedrock: "Input is too long for requested model."
  { provider: 'lmstudio', pattern: /greater than the context length/i },
  { provider: 'bedrock', pattern: /input is too long for requested model/i },
  // Mistral: "Prompt contains 40000 tokens ... too large for model with 32768 maximum context length"
  { provider: 'mistral', pattern: /too large for model with \d+ maximum context length/i },
  // Groq / OpenAI-compatible: "Please reduce the length of the messages or completion."
  { provider: 'groq', pattern: /reduce the length of the messages/i },
];

const NOT_OVERFLOW_STATUS = new Set([408, 429, 504]);
/** Rate limit, quota and timeout wording; such errors are never treated as overflow. */
const NOT_OVERFLOW_TEXT =
  /rate[_ ]limit|quota|resource[_ ]exhausted|too many requests|overloaded|timed? ?out|ETIMEDOUT|ECONNRESET|insufficient_quota|tokens per min/i;

type Bag = { statuses: number[]; texts: string[] };

function collect(value: unknown, bag: Bag, depth: number): void {
  if (depth > 4 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    bag.texts.push(value);
    return;
  }
  if (typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  for (const key of ['statusCode', 'status', 'code']) {
    const v = o[key];
    if (typeof v === 'number') bag.statuses.push(v);
    else if (typeof v === 'string' && /^\d{3}$/.test(v)) bag.statuses.push(Number(v));
  }
  for (const key of ['message', 'responseBody', 'code', 'type', 'name', 'body']) {
    if (typeof o[key] === 'string') bag.texts.push(o[key] as string);
  }
  for (const key of ['data', 'error', 'cause', 'lastError', 'response']) collect(o[key], bag, depth + 1);
  if (Array.isArray(o.errors)) for (const e of o.errors) collect(e, bag, depth + 1);
  if (Array.isArray(value)) for (const e of value) collect(e, bag, depth + 1);
}

/**
 * True when `err` (an Error, an AI SDK APICallError/RetryError, a fetch Response body, a plain
 * string) says the request was larger than the model's context window, or is an HTTP 413.
 */
export function isContextOverflowError(err: unknown): boolean {
  const bag: Bag = { statuses: [], texts: [] };
  collect(err, bag, 0);
  if (bag.statuses.some((s) => NOT_OVERFLOW_STATUS.has(s))) return false;
  const text = bag.texts.join('\n');
  if (OVERFLOW_PATTERNS.some(({ pattern }) => pattern.test(text))) return true;
  if (NOT_OVERFLOW_TEXT.test(text)) return false;
  return bag.statuses.includes(413) || /\b413\b.*too large|request entity too large/i.test(text);
}

/**
 * The prompt size an overflow error reports, when it says one: Anthropic "prompt is too long:
 * 208000 tokens > 200000 maximum", OpenAI/vLLM "your messages resulted in 9000 tokens", Gemini
 * "The input token count (1200000) exceeds…", llama.cpp "n_prompt_tokens": 9000. The provider's
 * own count of the rejected request beats any local estimate.
 */
export function overflowPromptTokens(err: unknown): number | undefined {
  const bag: Bag = { statuses: [], texts: [] };
  collect(err, bag, 0);
  const text = bag.texts.join('\n');
  const found =
    /prompt is too long:\s*([\d,]+)\s*tokens/i.exec(text) ??
    /(?:messages|prompt|input) resulted in\s*([\d,]+)\s*tokens/i.exec(text) ??
    /you requested\s*([\d,]+)\s*tokens\s*\(([\d,]+) in the messages/i.exec(text) ??
    /input token count \(([\d,]+)\)/i.exec(text) ??
    /n_prompt_tokens"?\s*[:=]\s*([\d,]+)/i.exec(text);
  if (!found) return undefined;
  const value = Number((found[2] ?? found[1])!.replace(/,/g, ''));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
