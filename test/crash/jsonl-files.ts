/**
 * The JSONL store's own files after a kill, once reopened and written to: no batch left
 * unfinished in the root, nothing left aside (`.tmp`) in a session folder the write settled, and
 * one archive per pivot, each named by its pivot's line and present in the folder (seed 003's
 * layout survives the kill whole).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JsonlStore } from '../../src/store/jsonl.js';

export async function jsonlFiles(store: JsonlStore, ids: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const id of ids) {
    const folder = store.sessionDir(id);
    const files = readdirSync(folder);
    const aside = files.filter((f) => f.endsWith('.tmp'));
    if (aside.length > 0) found.push(`session ${id}: files left aside after a write: ${aside.join(', ')}`);
    const archives = (
      JSON.parse(readFileSync(join(folder, 'archives.json'), 'utf8')) as { name: string }[]
    ).map((a) => a.name);
    const pivots = (await store.loadFrom(id, 0)).filter((e) => e.kind === 'compaction');
    if (archives.length !== pivots.length)
      found.push(`session ${id}: ${archives.length} archives for ${pivots.length} pivots`);
    for (const [i, pivot] of pivots.entries()) {
      const named = await store.archiveOf(id, pivot.id);
      if (named === undefined || named !== archives[i] || !files.includes(named))
        found.push(`session ${id}: pivot ${pivot.id} names archive ${named}, the index ${archives[i]}`);
    }
    const root = readdirSync(dirname(folder));
    const batches = root.filter((f) => f.startsWith('.batch-') && f.endsWith('.json'));
    if (batches.length > 0) found.push(`a committed batch was not finished at open: ${batches.join(', ')}`);
  }
  return found;
}
