/**
 * Nothing lost: every entry a store held before a child ran is still there, byte for byte, after
 * the child is killed — unless one of the child's announced parts updates names it. A compaction
 * or a rotation that drops or rewrites history is caught here even when the session row and the
 * newest entries look right.
 */
import type { Store } from '../../src/store/store.js';
import { digest } from './digest.js';
import type { Transcript } from './verdict.js';

/** Session id → entry id → digest of the whole entry. */
export type Snapshot = Map<string, Map<string, string>>;

export async function snapshot(store: Store): Promise<Snapshot> {
  const all: Snapshot = new Map();
  for (const { id } of await store.listSessions())
    all.set(id, new Map((await store.loadFrom(id, 0)).map((e) => [e.id, digest(e)])));
  return all;
}

export function historyViolations(before: Snapshot, now: Snapshot, t: Transcript): string[] {
  const updated = new Set(t.intents.flatMap((i) => i.changes.flatMap((c) => c.updated.map((u) => u.id))));
  const found: string[] = [];
  for (const [session, entries] of before) {
    const kept = now.get(session);
    if (!kept) {
      found.push(`session ${session} is gone`);
      continue;
    }
    for (const [id, was] of entries) {
      const is = kept.get(id);
      if (is === undefined) found.push(`session ${session}: entry ${id} is gone`);
      else if (is !== was && !updated.has(id)) found.push(`session ${session}: entry ${id} changed`);
    }
  }
  return found;
}
