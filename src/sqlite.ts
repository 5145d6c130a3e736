// `condense-context/sqlite`: the only entry that loads better-sqlite3 (a native module), so the root entry
// runs where it cannot be installed.
export { DEFAULT_SQLITE_PATH, type SqliteStoreOptions, sqliteStore } from './store/sqlite.js';
