import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Entry } from '../model/entry.js';
import type { SessionRecord } from '../model/session.js';
import {
  DuplicateEntryError,
  DuplicateSessionError,
  StoreClosedError,
  StoreWriteError,
  UnknownSessionError,
} from './errors.js';
import { createFolders, deleteFolder, type NewFolder, recoverRoot } from './jsonl-create.js';
import type { Durability } from './jsonl-fs.js';
import { lockSession, unlockSession } from './jsonl-lock.js';
import { type Manifest, readManifest, type Step } from './jsonl-manifest.js';
import { FolderView, linePages } from './jsonl-read.js';
import {
  appendEntries,
  discardUnpublished,
  type Folder,
  isFileError,
  replaceParts,
  settle,
} from './jsonl-write.js';
import {
  applyCommit,
  checkAppendBatch,
  checkNewSessions,
  checkPartsUpdates,
  checkSessionId,
  compareSessions,
  summarizeSession,
} from './rules.js';
import { scanSearch } from './search-scan.js';
import { type Commit, type NewSession, type Store, VersionConflictError } from './store.js';

export interface JsonlStoreOptions {
  /** Folder holding one sub-folder per session. Default `.condense/sessions` under the working directory. */
  dir?: string;
  /**
   * Sync each file before the rename that publishes it (default true). Without it a crash of the
   * process still leaves the old or the new state; a crash of the machine may not.
   */
  fsync?: boolean;
}

export const DEFAULT_JSONL_DIR = '.condense/sessions';

/** The JSONL store, plus what only it has: the archive file a compaction made. */
export interface JsonlStore extends Store {
  readonly kind: 'jsonl';
  /**
   * Its files are read whole: a streamed window reads each once (holding its text until the
   * stream ends) and decodes it a page at a time.
   */
  loadPages(sessionId: string, fromSeq: number, toSeq: number): AsyncIterable<Entry[]>;
  /** The folder of one session (`dir/<id>`, the id escaped to a safe file name). */
  sessionDir(sessionId: string): string;
  /**
   * The archive a compaction entry's line names (Pegasus's `previousSession`): the file that
   * holds what that compaction summarized. Undefined for an unknown session or entry.
   */
  archiveOf(sessionId: string, pivotId: string): Promise<string | undefined>;
}

/** Ids and seqs stored in a session, to refuse duplicates; valid while the manifest is at `gen`. */
interface KeyIndex {
  gen: number;
  ids: Set<string>;
  seqs: Set<number>;
}

/**
 * Pegasus's layout as a Store: `dir/<session>/current.jsonl`, one JSON line per entry; every
 * compaction renames it to `{YYYYMMDDTHHMMSS}.jsonl` and starts a new current file whose first
 * line is the summary naming that archive. A `session.json` beside them holds the session record
 * and publishes each write (see jsonl-manifest.ts). One process writes a session at a time (a
 * second is refused at its first write: jsonl-lock.ts); readers in other processes (the CLI) take
 * no lock and see committed states only. For many writers use SQLite.
 */
export function jsonlStore(opts: JsonlStoreOptions = {}): JsonlStore {
  return openJsonlStore(opts, () => {});
}

/** The store with a hook called after each persistence step (crash tests stop the process there). */
export function openJsonlStore(opts: JsonlStoreOptions, step: Step): JsonlStore {
  const root = resolve(opts.dir ?? DEFAULT_JSONL_DIR);
  mkdirSync(root, { recursive: true });
  recoverRoot(root, step);
  const durability: Durability = { fsync: opts.fsync ?? true };
  const keys = new Map<string, KeyIndex>();
  /** Sessions settled by this store: files left aside by an earlier process are swept once. */
  const swept = new Set<string>();
  /** Session folders whose writer lock this store holds (see jsonl-lock.ts), until close(). */
  const locked = new Set<string>();
  let closed = false;

  const open = () => {
    if (closed) throw new StoreClosedError('jsonl');
  };
  const folderOf = (id: string): Folder => ({ dir: join(root, folderName(id)), durability, step });
  /** A write's first step: this process must be the session's only writer. */
  const claim = (id: string, dir: string) => {
    if (locked.has(dir)) return;
    lockSession(dir, id);
    locked.add(dir);
  };

  /** The committed manifest a write starts from, after the compare-and-swap on the version. */
  function begin(commit: Commit): { folder: Folder; manifest: Manifest } {
    const folder = folderOf(commit.sessionId);
    const found = readManifest(folder.dir);
    if (found === undefined) throw new UnknownSessionError(commit.sessionId);
    claim(commit.sessionId, folder.dir);
    const manifest = settle(folder, found, !swept.has(commit.sessionId));
    swept.add(commit.sessionId);
    if (manifest.record.version !== commit.expectedVersion) {
      throw new VersionConflictError(commit.sessionId, commit.expectedVersion, manifest.record.version);
    }
    return { folder, manifest };
  }

  /**
   * Runs a write's file steps; one that fails before the commit (a full disk) leaves nothing aside
   * and ends in the store's error, naming the session and the file.
   */
  function publishing(
    sessionId: string,
    folder: Folder,
    manifest: Manifest,
    write: () => Manifest,
  ): Manifest {
    try {
      return write();
    } catch (error) {
      if (!isFileError(error)) throw error;
      discardUnpublished(folder, manifest);
      throw writeFailed(sessionId, error);
    }
  }

  function keyIndex(sessionId: string, folder: Folder, manifest: Manifest): KeyIndex {
    const cached = keys.get(sessionId);
    if (cached?.gen === manifest.gen) return cached;
    const entries = FolderView.read(folder.dir, (view) => view.keys()) ?? [];
    const index = {
      gen: manifest.gen,
      ids: new Set(entries.map((e) => e.id)),
      seqs: new Set(entries.map((e) => e.seq)),
    };
    keys.set(sessionId, index);
    return index;
  }

  function appendNow(entries: readonly Entry[], commit: Commit): SessionRecord {
    checkAppendBatch(entries, commit.sessionId);
    const { folder, manifest } = begin(commit);
    const index = keyIndex(commit.sessionId, folder, manifest);
    for (const entry of entries) {
      if (index.ids.has(entry.id)) throw new DuplicateEntryError(commit.sessionId, 'id', entry.id);
      if (index.seqs.has(entry.seq)) throw new DuplicateEntryError(commit.sessionId, 'seq', entry.seq);
    }
    // A copy: the caller may change its commit afterwards, and the record we return must not move.
    const record = applyCommit(manifest.record, structuredClone(commit), Date.now());
    const written = publishing(commit.sessionId, folder, manifest, () =>
      appendEntries(folder, manifest, entries, record),
    );
    for (const entry of entries) {
      index.ids.add(entry.id);
      index.seqs.add(entry.seq);
    }
    index.gen = written.gen;
    return record;
  }

  /** Checks every session of a batch, then writes them all or none (see jsonl-create.ts). */
  function createAll(batch: readonly NewSession[]): void {
    const folders: NewFolder[] = [];
    const names = new Set<string>();
    for (const { record, initial } of batch) {
      const name = folderName(record.id);
      if (names.has(name) || readManifest(join(root, name)) !== undefined)
        throw new DuplicateSessionError(record.id);
      names.add(name);
      if (initial) {
        checkAppendBatch(initial.entries, initial.commit.sessionId);
        if (initial.commit.expectedVersion !== record.version)
          throw new VersionConflictError(record.id, initial.commit.expectedVersion, record.version);
      }
      const stored = initial ? applyCommit(record, structuredClone(initial.commit), Date.now()) : record;
      folders.push({ name, record: stored, entries: initial?.entries ?? [] });
    }
    if (folders.length === 0) return;
    let existing: string | undefined;
    try {
      existing = createFolders(root, folders, durability, step);
    } catch (error) {
      // The sessions were staged aside, which createFolders removes: nothing is left.
      if (!isFileError(error)) throw error;
      throw writeFailed(batch[0]!.record.id, error);
    }
    if (existing !== undefined)
      throw new DuplicateSessionError(batch[folders.findIndex((f) => f.name === existing)]!.record.id);
    for (const { record } of batch) claim(record.id, folderOf(record.id).dir);
  }

  const store: JsonlStore = {
    kind: 'jsonl',

    sessionDir: (id) => folderOf(id).dir,

    async createSession(record, initial) {
      open();
      checkNewSessions([{ record }]);
      createAll([{ record, initial }]);
    },

    async createSessions(batch) {
      open();
      checkNewSessions(batch);
      createAll(batch);
    },

    async getSession(id) {
      open();
      checkSessionId(id);
      return readManifest(folderOf(id).dir)?.record;
    },

    async listSessions() {
      open();
      const summaries = [];
      for (const name of readdirSync(root)) {
        if (name.startsWith('.')) continue;
        const record = readManifest(join(root, name))?.record;
        if (record !== undefined) summaries.push(summarizeSession(record));
      }
      return summaries.sort(compareSessions);
    },

    async append(entries, commit) {
      open();
      return appendNow(entries, commit);
    },

    async updateParts(updates, commit) {
      open();
      checkPartsUpdates(updates, commit.sessionId);
      const { folder, manifest } = begin(commit);
      const record = applyCommit(manifest.record, structuredClone(commit), Date.now());
      const written = publishing(commit.sessionId, folder, manifest, () =>
        replaceParts(folder, manifest, updates, record),
      );
      const index = keys.get(commit.sessionId);
      if (index?.gen === manifest.gen) index.gen = written.gen;
      return record;
    },

    async loadFrom(sessionId, fromSeq, toSeq) {
      open();
      return FolderView.read(folderOf(sessionId).dir, (view) => view.loadFrom(fromSeq, toSeq)) ?? [];
    },

    async *loadPages(sessionId, fromSeq, toSeq) {
      open();
      const lines = FolderView.read(folderOf(sessionId).dir, (view) => view.linesFrom(fromSeq, toSeq));
      yield* linePages(lines ?? [], fromSeq, toSeq);
    },

    async getEntry(sessionId, entryId) {
      open();
      return FolderView.read(folderOf(sessionId).dir, (view) => view.find(entryId)?.entry);
    },

    async archiveOf(sessionId, pivotId) {
      open();
      const found = FolderView.read(folderOf(sessionId).dir, (view) => view.find(pivotId));
      return found?.previousSession;
    },

    async deleteSession(id) {
      open();
      const { dir } = folderOf(id);
      if (readManifest(dir) !== undefined) claim(id, dir);
      deleteFolder(root, folderName(id));
      keys.delete(id);
      swept.delete(id);
      locked.delete(dir);
      unlockSession(dir);
    },

    async close() {
      closed = true;
      keys.clear();
      for (const dir of locked) unlockSession(dir);
      locked.clear();
    },
    // No full-text index on files: a search reads what is stored (per search, never per turn).
    search: (text, opts) => scanSearch(store, text, opts),
  };
  return store;
}

/** A write the file system refused (a full disk, a read-only folder): nothing was written. */
function writeFailed(sessionId: string, error: unknown): StoreWriteError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreWriteError(`session ${sessionId}: the write failed and nothing was written (${reason})`, {
    cause: error,
  });
}

/**
 * A session id as a folder name: letters, digits, `_`, `-` and `.` as they are, anything else
 * (and a leading dot, which would hide the folder or name `..`) as %XX of its UTF-8 bytes.
 */
export function folderName(id: string): string {
  return id.replace(/[^A-Za-z0-9_.-]|^\./gu, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}
