import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonlStore } from '../../src/store/jsonl.js';
import type { Store } from '../../src/store/store.js';
import { describeStoreConformance } from './conformance.js';

const dirs = new Map<Store, string>();
describeStoreConformance(
  'jsonl',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'condense-jsonl-'));
    const store = jsonlStore({ dir });
    dirs.set(store, dir);
    return store;
  },
  (store) => rmSync(dirs.get(store)!, { recursive: true, force: true }),
);
