/**
 * Builds benchmark sessions straight through the Store API, a batch at a time, so that filling a
 * million-entry session never holds more than one batch in memory (a Session would keep its
 * whole never-compacted window).
 */
import { syntheticSession } from '../src/demo/synthetic.js';
import { buildMessageEntry } from '../src/model/build.js';
import type { MessageEntry } from '../src/model/entry.js';
import { openSession } from '../src/session/index.js';
import { afterAppend } from '../src/session/state.js';
import type { Store } from '../src/store/store.js';
import { heuristicEstimator } from '../src/tokens/estimator.js';

const BATCH = 1_000;

/** Writes a never-compacted session of `size` synthetic messages (seed 1) under `id`. */
export async function fillStore(store: Store, id: string, size: number): Promise<void> {
  const estimator = heuristicEstimator();
  // Opening creates the empty session (and, with no entries, reads none).
  await openSession(store, id, { model: 'bench' });
  let record = (await store.getSession(id))!;
  let batch: MessageEntry[] = [];
  const flush = async () => {
    const last = batch.at(-1);
    if (last === undefined) return;
    record = await store.append(batch, {
      sessionId: id,
      expectedVersion: record.version,
      headId: last.id,
      nextSeq: last.seq + 1,
      state: afterAppend(record.state, batch),
    });
    batch = [];
  };
  let parentId: string | null = null;
  let seq = 0;
  for (const message of syntheticSession({ messages: size, seed: 1 })) {
    const entry = buildMessageEntry(message, { sessionId: id, seq, parentId, id: `${id}-${seq}` }, estimator);
    batch.push(entry);
    parentId = entry.id;
    seq++;
    if (batch.length === BATCH) await flush();
  }
  await flush();
}
