export * from './build.js';
export * from './entry.js';
export * from './errors.js';
export * from './json.js';
export * from './message.js';
export * from './parts.js';
export * from './session.js';
export * from './validate.js';
