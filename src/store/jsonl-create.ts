import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Entry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import { type Durability, existsSync, isMissing, syncDir, writeFileSynced } from './jsonl-fs.js';
import { CURRENT, EMPTY_STATS, planLayout } from './jsonl-layout.js';
import { ARCHIVES, MANIFEST, type Manifest, type Step } from './jsonl-manifest.js';

/**
 * Session folders are made whole in a hidden staging folder beside them, then renamed into place:
 * a rename is atomic, and one onto an existing session fails. Several sessions at once (a
 * multi-run import) are published by a batch file listing the renames, written aside, synced and
 * renamed into place before the first of them (the commit point); opening the store finishes a
 * batch a crash interrupted, and staging folders no batch file names are left-overs.
 */

export interface NewFolder {
  name: string;
  record: SessionRecord;
  entries: readonly Entry[];
}

const STAGING = '.creating-';
const BATCH = '.batch-';
const DELETED = '.deleted-';

/** Writes a session's files into an empty folder, laid out as appends would have. */
function stage(dir: string, folder: NewFolder, d: Durability): void {
  mkdirSync(dir, { recursive: true });
  const plan = planLayout(folder.entries, EMPTY_STATS, () => false);
  const files = [plan.append, ...plan.files.map((file) => file.text)];
  const stats = [plan.appendStats, ...plan.files.map((file) => file.stats)];
  plan.archives.forEach((archive, i) => {
    writeFileSynced(join(dir, archive), files[i]!, d);
  });
  const current = files.at(-1)!;
  writeFileSynced(join(dir, CURRENT), current, d);
  const archives = plan.archives.map((archive, i) => ({ name: archive, ...stats[i]! }));
  writeFileSynced(join(dir, ARCHIVES), JSON.stringify(archives), d);
  const manifest: Manifest = {
    format: 1,
    // Not 1: a cache keyed by generation must not take a re-created session for the deleted one.
    gen: Date.now(),
    record: folder.record,
    current: { ...stats.at(-1)!, bytes: Buffer.byteLength(current) },
  };
  writeFileSynced(join(dir, MANIFEST), JSON.stringify(manifest), d);
  syncDir(dir, d);
}

const taken = (error: unknown) =>
  ['ENOTEMPTY', 'EEXIST', 'EPERM'].includes(String((error as { code?: unknown }).code));

/**
 * Creates session folders, all or none. Returns the name of one that already exists (nothing is
 * then created), or undefined once all are in place.
 */
export function createFolders(
  root: string,
  folders: readonly NewFolder[],
  d: Durability,
  step: Step,
): string | undefined {
  const staging = join(root, `${STAGING}${randomUUID()}`);
  let committed = false;
  try {
    for (const folder of folders) {
      const target = join(root, folder.name);
      if (existsSync(join(target, MANIFEST))) return folder.name;
      if (existsSync(target) && readdirSync(target).length > 0)
        throw new Error(`${target} exists but holds no session (no ${MANIFEST}): move it away`);
    }
    for (const folder of folders) stage(join(staging, folder.name), folder, d);
    syncDir(staging, d);
    step('staged');
    if (folders.length === 1) {
      // One rename publishes one folder: no batch file needed.
      try {
        renameSync(join(staging, folders[0]!.name), join(root, folders[0]!.name));
      } catch (error) {
        if (taken(error)) return folders[0]!.name;
        throw error;
      }
    } else if (folders.length > 1) {
      const batch = join(root, `${BATCH}${randomUUID()}.json`);
      const names = folders.map((f) => f.name);
      writeFileSynced(`${batch}.tmp`, JSON.stringify({ staging: basename(staging), names }), d);
      renameSync(`${batch}.tmp`, batch);
      syncDir(root, d);
      committed = true;
      step('batch-committed');
      finishBatch(root, batch, step);
    }
    syncDir(root, d);
    return undefined;
  } finally {
    // A committed batch keeps its staging until every folder is moved out (by us, or at reopen).
    if (!committed) rmSync(staging, { recursive: true, force: true });
  }
}

/** Moves a committed batch's folders into place (those not moved yet), then forgets the batch. */
function finishBatch(root: string, batch: string, step: Step): void {
  let text: string;
  try {
    text = readFileSync(batch, 'utf8');
  } catch (error) {
    if (isMissing(error)) return; // another process finished it
    throw error;
  }
  const { staging, names } = JSON.parse(text) as { staging: string; names: string[] };
  for (const name of names) {
    try {
      renameSync(join(root, staging, name), join(root, name));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    step(`moved ${name}`);
  }
  rmSync(batch, { force: true });
  rmSync(join(root, staging), { recursive: true, force: true });
  step('batch-done');
}

/** Staging folders older than this belong to no live writer: a crash left them. */
const STALE_MS = 60 * 60 * 1000;

/** At open: finishes committed batches, then removes deleted folders and stale staging. */
export function recoverRoot(root: string, step: Step): void {
  for (const name of readdirSync(root)) {
    if (name.startsWith(BATCH) && name.endsWith('.json')) finishBatch(root, join(root, name), step);
  }
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (name.startsWith(DELETED)) rmSync(path, { recursive: true, force: true });
    else if (name.startsWith(STAGING) || (name.startsWith(BATCH) && name.endsWith('.tmp'))) {
      if (Date.now() - modified(path) > STALE_MS) rmSync(path, { recursive: true, force: true });
    }
  }
}

/** When a path last changed; now if it is already gone (another process cleaned it). */
function modified(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch (error) {
    if (isMissing(error)) return Date.now();
    throw error;
  }
}

/** Deletes a session folder at once (renamed out of sight first), then its files. */
export function deleteFolder(root: string, name: string): void {
  const gone = join(root, `${DELETED}${randomUUID()}`);
  try {
    renameSync(join(root, name), gone);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  rmSync(gone, { recursive: true, force: true });
}
