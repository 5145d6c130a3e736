// `condense-context/ai-sdk`: condense inside AI SDK (`ai` package) calls.

import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import {
  type CondenseMiddlewareOptions as MiddlewareOptions,
  condenseMiddleware as middleware,
} from './integrations/ai-sdk/middleware.js';
import { openSession, type Session } from './session/session.js';

export { type RecallTools, recallTools } from './integrations/ai-sdk/recall.js';
export { type StepHooks, type StepHooksOptions, stepHooks } from './integrations/ai-sdk/step-hooks.js';
export { fromAiSdkResponse } from './model/ai-sdk/messages.js';

export type CondenseMiddlewareOptions = MiddlewareOptions<Session>;

/**
 * An AI SDK language-model middleware that gives any model condense's context management (see
 * integrations/ai-sdk/middleware.ts for how it ingests, branches, retries and replays). Its
 * sessions are opened here, so the integration needs the session's interface, not its class.
 *
 *   const model = wrapLanguageModel({ model: base, middleware: condenseMiddleware({ store, sessionId }) });
 */
export function condenseMiddleware(options: CondenseMiddlewareOptions): LanguageModelV3Middleware {
  return middleware(options, openSession);
}
