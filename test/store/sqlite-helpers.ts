import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the OS temp dir; `remove` deletes it with the db, -wal and -shm files. */
export function tempDir(): { dir: string; dbPath: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'condense-store-'));
  return {
    dir,
    dbPath: join(dir, 'nested', 'condense.db'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
