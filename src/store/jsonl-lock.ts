import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SessionLockedError } from './errors.js';
import { isMissing } from './jsonl-fs.js';

/**
 * One process writes a JSONL session at a time: two would cut each other's unpublished lines and
 * sweep each other's files written aside, and the session could no longer be read. The writer
 * holds `writer.lock` in the session folder, naming its pid and host; a second process is refused
 * with the holder's pid. A lock whose process is gone (killed, crashed) is stale and taken over.
 * Stores of one process share its locks: their calls are synchronous and never interleave.
 */
export const LOCK = 'writer.lock';

interface Holder {
  pid: number;
  host: string;
  since: number;
}

/** Locks this process holds, by path, with how many stores hold each. */
const held = new Map<string, number>();

/** Takes the writer lock of the session folder `dir` (or shares this process's); throws SessionLockedError. */
export function lockSession(dir: string, sessionId: string): void {
  const path = join(dir, LOCK);
  const shared = held.get(path);
  if (shared !== undefined) {
    held.set(path, shared + 1);
    return;
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(path)) {
      held.set(path, 1);
      return;
    }
    const text = readText(path);
    if (text === undefined) continue; // released meanwhile
    const holder = parse(text);
    if (holder?.pid === process.pid && holder.host === hostname()) {
      held.set(path, 1); // left by a store of ours that was not closed
      return;
    }
    if (holder !== undefined && alive(holder))
      throw new SessionLockedError(sessionId, path, holder.pid, holder.host);
    removeStale(path, text);
  }
  throw new SessionLockedError(sessionId, path, undefined, undefined);
}

/** Gives back one store's hold of the lock; the last one removes the file. */
export function unlockSession(dir: string): void {
  const path = join(dir, LOCK);
  const count = held.get(path);
  if (count === undefined) return;
  if (count > 1) {
    held.set(path, count - 1);
    return;
  }
  held.delete(path);
  const text = readText(path);
  if (text !== undefined && parse(text)?.pid === process.pid) rmSync(path, { force: true });
}

/** Creates the lock whole or not at all: written aside, then linked (which fails if it exists). */
function create(path: string): boolean {
  const aside = `${path}.${randomUUID()}`;
  const holder: Holder = { pid: process.pid, host: hostname(), since: Date.now() };
  writeFileSync(aside, `${JSON.stringify(holder)}\n`);
  try {
    linkSync(aside, path);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The holder a lock names; undefined for a file that is not a lock (removed as stale). */
function parse(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string') return value as Holder;
  } catch {}
  return undefined;
}

/** Whether the holder may still run: always when it is on another host (no way to ask). */
function alive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM'; // runs, as another user
  }
}

/**
 * Removes a stale lock, but only the one that was read: it is moved aside first (atomic), and put
 * back if it turns out to be a lock another process took over meanwhile.
 */
function removeStale(path: string, text: string): void {
  const aside = `${path}.${randomUUID()}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') !== text) linkSync(aside, path);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}
