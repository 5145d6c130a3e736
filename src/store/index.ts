export * from './errors.js';
export { memoryStore } from './memory.js';
export { DEFAULT_SQLITE_PATH, type SqliteStoreOptions, sqliteStore } from './sqlite.js';
export { SCHEMA_VERSION } from './sqlite-schema.js';
export * from './store.js';
