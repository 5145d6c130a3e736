export * from './config.js';
export * from './decide.js';
export * from './presets.js';
export * from './soft.js';
