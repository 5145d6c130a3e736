export * from './calibration.js';
export * from './estimator.js';
export * from './exact.js';
export * from './models.js';
export * from './ollama.js';
export * from './usage.js';
