export * from './apply.js';
export * from './eligible.js';
export * from './options.js';
export * from './plan.js';
export * from './scope.js';
export * from './trigger.js';
