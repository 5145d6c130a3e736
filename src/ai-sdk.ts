// `condense-context/ai-sdk`: condense inside AI SDK (`ai` package) calls.

export { type CondenseMiddlewareOptions, condenseMiddleware } from './integrations/ai-sdk/middleware.js';
export { fromAiSdkResponse } from './integrations/ai-sdk/model-messages.js';
export { type RecallTools, recallTools } from './integrations/ai-sdk/recall.js';
export { type StepHooks, type StepHooksOptions, stepHooks } from './integrations/ai-sdk/step-hooks.js';
