/** A session that has been compacted many times, on each kind of store, for the recall tool tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession, presetOptions, type Session } from '../../src/session/index.js';
import { jsonlStore } from '../../src/store/jsonl.js';
import { memoryStore } from '../../src/store/memory.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { scripted } from '../presets/support.js';

export const FACT = 'The staging deploy key is kestrel-4417.';

export type StoreKind = 'memory' | 'jsonl' | 'sqlite';
export const STORE_KINDS: StoreKind[] = ['memory', 'jsonl', 'sqlite'];

export function makeStore(kind: StoreKind): { store: Store; dispose: () => void } {
  if (kind === 'memory') return { store: memoryStore(), dispose: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'condense-recall-'));
  return {
    store:
      kind === 'jsonl' ? jsonlStore({ dir, fsync: false }) : sqliteStore({ path: join(dir, 'condense.db') }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A seed-003 session where FACT was said in turn 0 and then `compactions` compactions happened,
 * each after three more turns. The summaries never repeat the fact: it is gone from the context
 * and only the stored history holds it.
 */
export async function compactedSession(store: Store, compactions: number): Promise<Session> {
  const summarizer = scripted(
    (_request, n) => `compaction ${n}: the user and the agent worked through more tasks.`,
  );
  const session = await openSession(store, 's', {
    ...presetOptions('seed-003'),
    model: 'gpt-4o',
    compaction: { ...presetOptions('seed-003').compaction, summarizer },
  });
  await session.append({ role: 'user', parts: [{ type: 'text', text: `Remember this. ${FACT}` }] });
  await session.append({ role: 'assistant', parts: [{ type: 'text', text: 'Noted.' }] });
  for (let c = 0; c < compactions; c++) {
    for (let t = 0; t < 3; t++) {
      await session.append({
        role: 'user',
        parts: [{ type: 'text', text: `Task ${c}.${t}: ${'more work '.repeat(40)}` }],
      });
      await session.append({
        role: 'assistant',
        parts: [{ type: 'text', text: `Done with task ${c}.${t}.` }],
      });
    }
    const outcome = await session.compact();
    if (outcome.status !== 'compacted') throw new Error(`compaction ${c} did not happen: ${outcome.reason}`);
  }
  return session;
}
