/** Helpers for the preset scenario tests: messages of exact token sizes, scripted summarizers. */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import type { Summarizer, SummaryRequest } from '../../src/compact/index.js';
import { type ContextFormat, validate } from '../../src/context/index.js';
import type {
  AssistantMessage,
  PivotDetails,
  TextPart,
  ToolPart,
  UserMessage,
} from '../../src/model/index.js';
import type { Store } from '../../src/store/index.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';

export const estimator = heuristicEstimator();
const PART_MAX_CHARS = 4 * 40_000;

/** Text parts whose heuristic estimate, with the message's 4-token framing, is exactly `tokens`. */
function sizedParts(lead: string, tokens: number): TextPart[] {
  const budget = tokens - 4 - Math.ceil(lead.length / 4);
  if (budget < 0) throw new Error(`${tokens} tokens cannot hold "${lead}"`);
  const parts: TextPart[] = [{ type: 'text', text: lead }];
  let chars = budget * 4;
  while (chars > 0) {
    const n = Math.min(chars, PART_MAX_CHARS);
    parts.push({ type: 'text', text: 'z'.repeat(n) });
    chars -= n;
  }
  return parts;
}

/** A user message costing exactly `tokens` estimated tokens, starting with `text`. */
export function sizedUser(text: string, tokens: number): UserMessage {
  return { role: 'user', parts: sizedParts(text, tokens) };
}

/** An assistant message costing exactly `tokens` estimated tokens, starting with `text`. */
export function sizedSay(text: string, tokens: number): AssistantMessage {
  return { role: 'assistant', parts: sizedParts(text, tokens) };
}

export const user = (text: string): UserMessage => ({ role: 'user', parts: [{ type: 'text', text }] });
export const say = (text: string): AssistantMessage => ({
  role: 'assistant',
  parts: [{ type: 'text', text }],
});

let calls = 0;
/** A finished tool call whose output is `outputTokens` estimated tokens. */
export function toolRun(name: string, input: Record<string, string>, outputTokens: number): ToolPart {
  calls += 1;
  return {
    type: 'tool',
    callId: `call_${calls}`,
    name,
    input,
    state: 'completed',
    output: `result ${calls} `.padEnd(outputTokens * 4, 'o'),
  };
}

export const act = (...tools: ToolPart[]): AssistantMessage => ({ role: 'assistant', parts: tools });

/** A summarizer that records its requests and answers with `write(request, n)`. */
export function scripted(write: (request: SummaryRequest, n: number) => string): Summarizer & {
  requests: SummaryRequest[];
} {
  const requests: SummaryRequest[] = [];
  return {
    name: 'scripted',
    requests,
    async summarize(request) {
      requests.push(request);
      const details: PivotDetails = { filesRead: [], filesModified: [] };
      if (request.plan.latestUserRequest !== undefined)
        details.lastUserRequest = request.plan.latestUserRequest;
      return { text: write(request, requests.length), details };
    },
  };
}

/** The stored session, byte for byte: the record and every entry. */
export async function snapshot(store: Store, id: string): Promise<string> {
  return JSON.stringify([await store.getSession(id), await store.loadFrom(id, 0)]);
}

/** Fails with the violations when `payload` is not a valid `format` request. */
export function expectValid(payload: unknown, format: ContextFormat): void {
  const violations = validate(payload, format);
  if (violations.length > 0) throw new Error(`${format}: ${JSON.stringify(violations)}`);
}

type Finish = LanguageModelV3GenerateResult['finishReason']['unified'];
/** A mock model reply (AI SDK v3 generate result). */
export function reply(text: string, finish: Finish = 'stop'): LanguageModelV3GenerateResult {
  return {
    content: text === '' ? [] : [{ type: 'text', text }],
    finishReason: { unified: finish, raw: finish },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    },
    warnings: [],
  };
}

/** A mock model answering every call with `answer(call, n)` (n from 1); its calls are in `doGenerateCalls`. */
export function mockModel(
  answer: string | ((call: LanguageModelV3CallOptions, n: number) => LanguageModelV3GenerateResult | string),
): MockLanguageModelV3 {
  let n = 0;
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      n += 1;
      const out = typeof answer === 'string' ? answer : answer(call, n);
      return typeof out === 'string' ? reply(out) : out;
    },
  });
}

type PromptMessage = LanguageModelV3CallOptions['prompt'][number];

/** The text a provider-level prompt message carries (system content, text parts). */
export function promptText(message: PromptMessage | undefined): string {
  if (message === undefined) return '';
  if (message.role === 'system') return message.content;
  return message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/** Every tool result a prompt carries: call id and the text or error text sent. */
export function promptResults(prompt: LanguageModelV3CallOptions['prompt']): { id: string; text: string }[] {
  return prompt.flatMap((m) =>
    m.role === 'tool'
      ? m.content.flatMap((p) =>
          p.type === 'tool-result' && (p.output.type === 'text' || p.output.type === 'error-text')
            ? [{ id: p.toolCallId, text: p.output.value }]
            : [],
        )
      : [],
  );
}

/** AI SDK v6 usage of a step with 100k input, 10k output text and 100k reasoning (outputTokens 110k). */
export const REASONING_STEP_USAGE = {
  inputTokens: 100_000,
  inputTokenDetails: { noCacheTokens: 100_000, cacheReadTokens: 0, cacheWriteTokens: 0 },
  outputTokens: 110_000,
  outputTokenDetails: { textTokens: 10_000, reasoningTokens: 100_000 },
  totalTokens: 210_000,
};
