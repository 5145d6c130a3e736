import type { LanguageModelV3GenerateResult, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import type { MockLanguageModelV3 } from 'ai/test';
import { type CondenseMiddlewareOptions, condenseMiddleware } from '../../src/ai-sdk.js';
import type { MessageEntry } from '../../src/model/entry.js';
import type { Session } from '../../src/session/index.js';
import type { Store } from '../../src/store/index.js';

/** Middleware-test plumbing: a wrapped model and the sessions the middleware opened. */
export function wrapped(
  model: MockLanguageModelV3,
  store: Store,
  options: Partial<CondenseMiddlewareOptions> = {},
) {
  const sessions: Session[] = [];
  const warnings: string[] = [];
  const middleware = condenseMiddleware({
    store,
    sessionId: 'chat',
    ...options,
    onSession: (session) => {
      sessions.push(session);
      session.on('warning', (w) => warnings.push(w.message));
      options.onSession?.(session);
    },
  });
  return { model: wrapLanguageModel({ model, middleware }), sessions, warnings };
}

/** Every message entry a session ever stored. */
export async function messageEntries(store: Store, id: string): Promise<MessageEntry[]> {
  const entries = await store.loadFrom(id, 0);
  return entries.filter((e): e is MessageEntry => e.kind === 'message');
}

export function texts(entries: MessageEntry[], role: 'user' | 'assistant'): string[] {
  return entries
    .filter((e) => e.message.role === role)
    .flatMap((e) => e.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
}

/** A prompt as JSON, the way a provider would serialize it. */
export function promptJson(prompt: LanguageModelV3Prompt): unknown {
  return JSON.parse(JSON.stringify(prompt));
}

/** All the text a prompt carries, for "does the model see X" checks. */
export function promptText(prompt: LanguageModelV3Prompt): string {
  return JSON.stringify(prompt);
}

/** A model's plain text answer, with the prompt size it reports. */
export function textReply(text: string, inputTokens = 50): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: undefined },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    },
    warnings: [],
  };
}
