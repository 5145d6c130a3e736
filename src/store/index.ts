// The SQLite store is not here: it loads a native module, so it has its own entry (src/sqlite.ts).
export * from './errors.js';
export {
  type ChannelEvent,
  DuplicateEventError,
  type EventFilter,
  type EventHit,
  type EventLedger,
  type StoredEvent,
} from './events.js';
export { memoryStore } from './memory.js';
export type { EntryHit, SearchOptions } from './search.js';
export * from './store.js';
