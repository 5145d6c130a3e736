// `condense-context/ai-sdk`: condense inside AI SDK (`ai` package) calls.

export { type CondenseMiddlewareOptions, condenseMiddleware } from './integrations/ai-sdk/middleware.js';
export { type RecallTools, recallTools } from './integrations/ai-sdk/recall.js';
export { type StepHooks, type StepHooksOptions, stepHooks } from './integrations/ai-sdk/step-hooks.js';
export { fromAiSdkResponse } from './model/ai-sdk/messages.js';
