export { CONFIG_FILE_NAMES } from './find.js';
export { type LoadedConfig, loadConfig } from './load.js';
export { mergeOptions } from './merge.js';
