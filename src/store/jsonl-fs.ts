import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';

/**
 * The file operations the JSONL store is built from, all synchronous: a store call runs to its
 * end without yielding, so calls within one process never interleave, and a crash can only stop
 * the process between two of these steps, each of which leaves the files in a state that
 * reopening recognizes.
 */

export interface Durability {
  /** fsync data before the rename that publishes it (off only for throwaway stores). */
  fsync: boolean;
}

function writeAll(fd: number, data: Buffer, position: number): void {
  for (let done = 0; done < data.length; ) {
    done += writeSync(fd, data, done, data.length - done, position + done);
  }
}

/** Creates or replaces `path` with `data`, synced before it returns. */
export function writeFileSynced(path: string, data: string, d: Durability): void {
  const fd = openSync(path, 'w');
  try {
    writeAll(fd, Buffer.from(data, 'utf8'), 0);
    if (d.fsync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `data` at byte `offset` of an existing file, first cutting anything past `offset` (a
 * tail no commit ever published), and syncs. Returns the new length.
 */
export function writeAtSynced(path: string, offset: number, data: string, d: Durability): number {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size < offset) throw new Error(`${path} is ${size} bytes, shorter than the ${offset} committed`);
    if (size > offset) ftruncateSync(fd, offset);
    const bytes = Buffer.from(data, 'utf8');
    writeAll(fd, bytes, offset);
    if (d.fsync) fsyncSync(fd);
    return offset + bytes.length;
  } finally {
    closeSync(fd);
  }
}

/** Cuts a file back to `length` bytes if it is longer (an unpublished tail). */
export function truncateTo(path: string, length: number): void {
  const fd = openSync(path, 'r+');
  try {
    if (fstatSync(fd).size > length) ftruncateSync(fd, length);
  } finally {
    closeSync(fd);
  }
}

/** Makes renames and creations in `dir` durable. Some platforms cannot open a folder: skipped. */
export function syncDir(dir: string, d: Durability): void {
  if (!d.fsync) return;
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Windows refuses fsync on a folder handle; its renames are durable without it.
  } finally {
    closeSync(fd);
  }
}

/** The first `length` bytes of an open file (all of it when `length` is undefined). */
export function readFd(fd: number, length?: number): Buffer {
  const size = length ?? fstatSync(fd).size;
  const buffer = Buffer.alloc(size);
  for (let done = 0; done < size; ) {
    const n = readSync(fd, buffer, done, size - done, done);
    if (n === 0) throw new Error(`file ended after ${done} of ${size} bytes`);
    done += n;
  }
  return buffer;
}

/** Nothing at that path (ENOTDIR: a file stands where a folder of the path would be). */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Opens for reading; undefined when the file is not there. */
export function openIfExists(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** A rename that someone else (a reader recovering, an earlier attempt) may have done already. */
export function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

export { existsSync };
