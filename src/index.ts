export * from './budget/index.js';
export * from './compact/index.js';
export * from './context/index.js';
export { fromAiSdkResponse } from './integrations/ai-sdk-messages.js';
export * from './model/index.js';
export * from './prune/index.js';
export * from './session/index.js';
export * from './store/index.js';
export * from './tokens/index.js';
