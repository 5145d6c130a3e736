import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../model/errors.js';
import { jsonObjectSchema } from '../model/json.js';
import type { SessionRecord } from '../model/session.js';
import { parseWith } from '../model/validate.js';
import {
  type Durability,
  existsSync,
  isMissing,
  renameIfPresent,
  syncDir,
  writeFileSynced,
} from './jsonl-fs.js';
import type { ArchiveStats, FileStats } from './jsonl-layout.js';

/**
 * `session.json`, the commit record of one session folder. A write publishes its files by
 * replacing this file (written aside, synced, renamed over): before the rename the old state
 * stands, after it the new one. `current.bytes` is how much of current.jsonl is published, so a
 * tail written by an interrupted append is ignored and cut. When a write must also rename files
 * (an archive rotation, a rewritten file), the renames are listed in `pending` in the same
 * commit and done afterwards; whoever opens the session next finishes any left undone.
 */
export const MANIFEST = 'session.json';
export const ARCHIVES = 'archives.json';

/**
 * One rename of a commit. 'archive' moves the current file to its archive name and is done when
 * the archive exists (the current name is by then the new file); 'replace' publishes a file
 * written aside and is done when that file is gone.
 */
export interface Move {
  from: string;
  to: string;
  mode: 'archive' | 'replace';
}

export interface Manifest {
  format: 1;
  /** Bumped by every rewrite of this file: a reader that sees it change re-reads. */
  gen: number;
  record: SessionRecord;
  current: FileStats & { bytes: number };
  pending?: Move[];
}

const count = z.number().int().nonnegative();
const seq = z.number().int().min(-1);
const stats = { count, minSeq: seq, maxSeq: seq };
const manifestSchema = z.object({
  format: z.literal(1),
  gen: count,
  record: z.object({
    id: z.string().min(1),
    createdAt: z.number(),
    updatedAt: z.number(),
    headId: z.string().nullable(),
    version: count,
    nextSeq: count,
    metadata: jsonObjectSchema,
    state: z.record(z.string(), z.unknown()),
  }),
  current: z.object({ ...stats, bytes: count }),
  pending: z
    .array(z.object({ from: z.string().min(1), to: z.string().min(1), mode: z.enum(['archive', 'replace']) }))
    .optional(),
});
const archivesSchema = z.array(z.object({ name: z.string().min(1), ...stats }));

function readJson(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`not valid JSON (${(error as Error).message})`, { file: path });
  }
}

/** The session's manifest; undefined when the folder holds no session. */
export function readManifest(dir: string): Manifest | undefined {
  const path = join(dir, MANIFEST);
  let value: unknown;
  try {
    value = readJson(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  parseWith(manifestSchema, value, { file: path });
  // Checked, then used as read: the record's state comes back exactly as it was stored.
  return value as Manifest;
}

export function readArchives(path: string): ArchiveStats[] {
  const value = readJson(path);
  parseWith(archivesSchema, value, { file: path });
  return value as ArchiveStats[];
}

/**
 * Publishes a manifest: written aside, synced, renamed over the old one (the commit point). The
 * folder is synced after the rename when files are to be moved next (`moves`): a machine crash
 * must not keep a move and lose the manifest that lists it. A plain append skips that sync: if
 * the rename is lost, the old manifest stands and the appended lines are cut as unpublished.
 */
export function writeManifest(dir: string, manifest: Manifest, d: Durability, step: Step): void {
  const aside = join(dir, `${MANIFEST}.tmp`);
  writeFileSynced(aside, JSON.stringify(manifest), d);
  step('manifest-written');
  renameSync(aside, join(dir, MANIFEST));
  if (manifest.pending) syncDir(dir, d);
  step('manifest-renamed');
}

/** Called after each persistence step; tests use it to stop the process there. */
export type Step = (name: string) => void;

/** Does the moves of a commit that are not done yet, in order; safe to repeat at any point. */
export function applyMoves(dir: string, moves: readonly Move[], d: Durability, step: Step): void {
  for (const move of moves) {
    const to = join(dir, move.to);
    if (move.mode === 'archive' && existsSync(to)) continue;
    renameIfPresent(join(dir, move.from), to);
    step(`moved ${move.to}`);
  }
  syncDir(dir, d);
}

/**
 * Where the committed content of `name` is while a commit's moves are not all done: a file
 * still waiting under its temporary name, or the current file not yet archived.
 */
export function resolveName(dir: string, name: string, pending: readonly Move[] | undefined): string {
  const move = pending?.find((m) => m.to === name);
  if (move === undefined) return name;
  if (move.mode === 'replace') return existsSync(join(dir, move.from)) ? move.from : name;
  return existsSync(join(dir, name)) ? name : move.from;
}
