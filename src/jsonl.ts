// `condense-context/jsonl`: Pegasus's file layout as a store (one folder per session, current.jsonl and
// its timestamped archives). Its own entry, like `condense-context/sqlite`: the root keeps the Store
// interface and the memory store, each persistent store comes from the path that names it.
export {
  DEFAULT_JSONL_DIR,
  type JsonlStore,
  type JsonlStoreOptions,
  jsonlStore,
} from './store/jsonl.js';
