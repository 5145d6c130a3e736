import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry, MessageEntry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import { StoreWriteError } from './errors.js';
import { type Durability, existsSync, truncateTo, writeAtSynced, writeFileSynced } from './jsonl-fs.js';
import { type ArchiveStats, CURRENT, type LayoutPlan, planLayout } from './jsonl-layout.js';
import { decodeLine, encodeLine } from './jsonl-lines.js';
import {
  ARCHIVES,
  applyMoves,
  type Manifest,
  type Move,
  readArchives,
  type Step,
  writeManifest,
} from './jsonl-manifest.js';
import type { PartsUpdate } from './store.js';

/** A session folder being written: where, how durably, and who hears each step. */
export interface Folder {
  dir: string;
  durability: Durability;
  step: Step;
}

/** Files written aside end in `.tmp`; only a commit's moves give them their real names. */
const ASIDE = /\.tmp$/;

/**
 * Undoes what a write that failed before its commit left (the disk full mid-write, say): the files
 * it wrote aside, and the lines it appended past the published bytes. Best effort: the next write
 * settles the folder anyway, and the write's own error is the one to report.
 */
export function discardUnpublished(f: Folder, manifest: Manifest): void {
  try {
    for (const name of readdirSync(f.dir)) if (ASIDE.test(name)) rmSync(join(f.dir, name), { force: true });
    truncateTo(join(f.dir, CURRENT), manifest.current.bytes);
  } catch {}
}

/**
 * Brings a folder to its committed state before a write: finishes the moves of a commit a crash
 * interrupted, cuts what an interrupted append wrote past the published bytes, and (`sweep`)
 * removes files written aside by a write that never committed.
 */
export function settle(f: Folder, manifest: Manifest, sweep: boolean): Manifest {
  let m = manifest;
  if (m.pending) m = finishMoves(f, m);
  if (sweep)
    for (const name of readdirSync(f.dir)) if (ASIDE.test(name)) rmSync(join(f.dir, name), { force: true });
  const current = join(f.dir, CURRENT);
  if (!existsSync(current)) throw new Error(`${current} is missing: the session folder is damaged`);
  truncateTo(current, m.current.bytes);
  return m;
}

/**
 * After a commit: its moves, then a manifest without them. A failure here (no room left for the
 * new manifest) does not undo the commit, which stands as published: the next write or reader
 * finishes the moves, so the write is reported done.
 */
function finishCommitted(f: Folder, committed: Manifest): Manifest {
  try {
    return finishMoves(f, committed);
  } catch (error) {
    if (!isFileError(error)) throw error;
    return committed;
  }
}

/** An error of the file system (it names a syscall), not one of the store's own checks. */
export function isFileError(error: unknown): boolean {
  return typeof (error as { syscall?: unknown })?.syscall === 'string';
}

function finishMoves(f: Folder, m: Manifest): Manifest {
  applyMoves(f.dir, m.pending ?? [], f.durability, f.step);
  const { pending: _done, ...rest } = m;
  const settled = { ...rest, gen: m.gen + 1 };
  writeManifest(f.dir, settled, f.durability, f.step);
  return settled;
}

/** Appends a batch; a compaction entry in it rotates the current file into an archive. */
export function appendEntries(
  f: Folder,
  m: Manifest,
  entries: readonly Entry[],
  record: SessionRecord,
): Manifest {
  const plan = planLayout(entries, m.current, (name) => existsSync(join(f.dir, name)));
  let bytes = m.current.bytes;
  if (plan.append !== '') {
    bytes = writeAtSynced(join(f.dir, CURRENT), bytes, plan.append, f.durability);
    f.step('appended');
  }
  if (plan.files.length === 0) {
    const next: Manifest = { format: 1, gen: m.gen + 1, record, current: { ...plan.appendStats, bytes } };
    writeManifest(f.dir, next, f.durability, f.step);
    return next;
  }
  return rotate(f, m, plan, record);
}

/**
 * Pegasus's "rename current.jsonl → {timestamp}.jsonl, then start a new one" in an order a crash
 * cannot break: the new files and the new archive index are written aside and synced,
 * the manifest naming the renames is published (the commit point), then the renames are done.
 */
function rotate(f: Folder, m: Manifest, plan: LayoutPlan, record: SessionRecord): Manifest {
  const moves: Move[] = [{ from: CURRENT, to: plan.archives[0]!, mode: 'archive' }];
  plan.files.forEach((file, i) => {
    const aside = `rotate-${i}.jsonl.tmp`;
    writeFileSynced(join(f.dir, aside), file.text, f.durability);
    moves.push({ from: aside, to: plan.archives[i + 1] ?? CURRENT, mode: 'replace' });
  });
  f.step('files-written');
  const archives: ArchiveStats[] = [
    ...readArchives(join(f.dir, ARCHIVES)),
    { name: plan.archives[0]!, ...plan.appendStats },
    ...plan.files.slice(0, -1).map((file, i) => ({ name: plan.archives[i + 1]!, ...file.stats })),
  ];
  writeFileSynced(join(f.dir, `${ARCHIVES}.tmp`), JSON.stringify(archives), f.durability);
  moves.push({ from: `${ARCHIVES}.tmp`, to: ARCHIVES, mode: 'replace' });
  f.step('index-written');
  const last = plan.files.at(-1)!;
  const current = { ...last.stats, bytes: Buffer.byteLength(last.text) };
  const committed: Manifest = { format: 1, gen: m.gen + 1, record, current, pending: moves };
  writeManifest(f.dir, committed, f.durability, f.step);
  return finishCommitted(f, committed);
}

/**
 * Replaces parts of message entries wherever they are (current file or archives). Every target is
 * found and checked before anything is written; each touched file is rewritten aside and
 * published by the commit's moves.
 */
export function replaceParts(
  f: Folder,
  m: Manifest,
  updates: readonly PartsUpdate[],
  record: SessionRecord,
): Manifest {
  const remaining = new Map(updates.map((u) => [u.entryId, u]));
  const rewritten = new Map<string, string>();
  const names = [...readArchives(join(f.dir, ARCHIVES)).map((a) => a.name), CURRENT].reverse();
  for (const name of names) {
    if (remaining.size === 0) break;
    const text = fileText(f.dir, name, name === CURRENT ? m.current.bytes : undefined);
    const lines = text.split('\n');
    let touched = false;
    lines.forEach((line, i) => {
      const id = [...remaining.keys()].find((key) =>
        line.includes(`"condense":{"id":${JSON.stringify(key)},`),
      );
      if (id === undefined) return;
      const { entry } = decodeLine(line, record.id, join(f.dir, name), i + 1);
      if (entry.id !== id) return;
      lines[i] = encodeLine(withParts(entry, remaining.get(id)!, record.id));
      remaining.delete(id);
      touched = true;
    });
    if (touched) rewritten.set(name, lines.join('\n'));
  }
  const [missing] = remaining.keys();
  if (missing !== undefined) throw new StoreWriteError(`session ${record.id}: no entry ${missing} to update`);
  const moves: Move[] = [];
  let bytes = m.current.bytes;
  for (const [name, text] of rewritten) {
    writeFileSynced(join(f.dir, `${name}.tmp`), text, f.durability);
    moves.push({ from: `${name}.tmp`, to: name, mode: 'replace' });
    if (name === CURRENT) bytes = Buffer.byteLength(text);
  }
  f.step('files-written');
  const committed: Manifest = {
    ...m,
    gen: m.gen + 1,
    record,
    current: { ...m.current, bytes },
    pending: moves,
  };
  writeManifest(f.dir, committed, f.durability, f.step);
  return finishCommitted(f, committed);
}

function withParts(entry: Entry, update: PartsUpdate, sessionId: string): MessageEntry {
  if (entry.kind !== 'message') {
    throw new StoreWriteError(
      `session ${sessionId}: entry ${entry.id} is a ${entry.kind} entry and has no parts`,
    );
  }
  const { parts, partTokens, tokens } = structuredClone(update);
  return { ...entry, message: { ...entry.message, parts } as MessageEntry['message'], partTokens, tokens };
}

function fileText(dir: string, name: string, bytes?: number): string {
  const buffer = readFileSync(join(dir, name));
  return (bytes === undefined ? buffer : buffer.subarray(0, bytes)).toString('utf8');
}
