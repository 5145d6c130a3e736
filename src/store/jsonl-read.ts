import { closeSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import { isMissing, openIfExists, readFd } from './jsonl-fs.js';
import { type ArchiveStats, CURRENT } from './jsonl-layout.js';
import { type DecodedLine, decodeLine, lineKey } from './jsonl-lines.js';
import { ARCHIVES, type Manifest, readArchives, readManifest, resolveName } from './jsonl-manifest.js';
import { PAGE_SEQS, PAGE_TOKENS } from './pages.js';

/**
 * A consistent read of one session folder without taking a lock or changing a file, so a reader
 * (another process, the CLI) never disturbs the writer. Each file is opened where its committed
 * content is (see resolveName), the place is checked again once the file is open, and the
 * manifest generation is checked at the end: if a writer moved anything in between, the read
 * starts over. Open files keep their content through renames, and published bytes never change.
 */
export class FolderView {
  private constructor(
    readonly dir: string,
    readonly manifest: Manifest,
  ) {}

  /** Runs `use` on a consistent view; undefined when the folder holds no session. */
  static read<T>(dir: string, use: (view: FolderView) => T): T | undefined {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const manifest = readManifest(dir);
      if (manifest === undefined) return undefined;
      const view = new FolderView(dir, manifest);
      try {
        const result = use(view);
        if (view.unchanged()) return result;
      } catch (error) {
        // An error from a view that a writer changed under us says nothing: read again.
        if (!view.unchanged()) continue;
        if (!(error instanceof MovedError || isMissing(error))) throw error;
        // Nothing was being moved, yet a file is not where the manifest says: it is gone.
        if (view.manifest.pending === undefined) throw damaged(dir, error);
      }
    }
    throw new Error(`${dir}: the session changed under ${MAX_ATTEMPTS} reads in a row`);
  }

  private unchanged(): boolean {
    return readManifest(this.dir)?.gen === this.manifest.gen;
  }

  /** The committed text of one file of the folder (current.jsonl: its published bytes only). */
  text(name: string): string {
    const { pending } = this.manifest;
    const place = resolveName(this.dir, name, pending);
    const fd = openIfExists(join(this.dir, place));
    if (fd === undefined) throw new MovedError(join(this.dir, place));
    try {
      if (resolveName(this.dir, name, pending) !== place) throw new MovedError(join(this.dir, place));
      const bytes = name === CURRENT ? this.manifest.current.bytes : undefined;
      const size = fstatSync(fd).size;
      if (bytes !== undefined && size < bytes) {
        throw new InputError(
          `${size} bytes, fewer than the ${bytes} published in session.json: the file was cut`,
          {
            file: join(this.dir, place),
          },
        );
      }
      return readFd(fd, bytes).toString('utf8');
    } finally {
      closeSync(fd);
    }
  }

  archives(): ArchiveStats[] {
    const place = resolveName(this.dir, ARCHIVES, this.manifest.pending);
    try {
      return readArchives(join(this.dir, place));
    } catch (error) {
      if (isMissing(error)) throw new MovedError(join(this.dir, place));
      throw error;
    }
  }

  /** Every line of a file, decoded, in file order. `keep` skips lines cheaply before decoding. */
  lines(name: string, keep: (line: string) => boolean = () => true): DecodedLine[] {
    const out: DecodedLine[] = [];
    this.eachLine(name, (line, decode) => {
      if (keep(line)) out.push(decode());
    });
    return out;
  }

  /** Each line of a file as text, with a function that decodes it (errors name file and line). */
  private eachLine(name: string, visit: (line: string, decode: () => DecodedLine) => void): void {
    const id = this.manifest.record.id;
    const file = join(this.dir, name);
    const text = this.text(name);
    let start = 0;
    for (let n = 1; start < text.length; n++) {
      const end = text.indexOf('\n', start);
      if (end < 0)
        throw new InputError('the last line has no newline: the file was cut short', { file, line: n });
      const line = text.slice(start, end);
      if (line.trim() !== '') visit(line, () => decodeLine(line, id, file, n));
      start = end + 1;
    }
  }

  /** The id and seq of every stored entry, read without decoding the entries. */
  keys(): { id: string; seq: number }[] {
    const keys: { id: string; seq: number }[] = [];
    for (const file of this.files()) {
      if (file.count === 0) continue;
      this.eachLine(file.name, (line, decode) => {
        const key = lineKey(line) ?? decode().entry;
        keys.push({ id: key.id, seq: key.seq });
      });
    }
    return keys;
  }

  /** The files whose seqs overlap [fromSeq, toSeq), oldest first: the only ones a range read opens. */
  private filesHolding(fromSeq: number, toSeq: number) {
    return this.files().filter((f) => f.count > 0 && f.maxSeq >= fromSeq && f.minSeq < toSeq);
  }

  /** File names, oldest first: the archives, then the current file. */
  files(): { name: string; minSeq: number; maxSeq: number; count: number }[] {
    return [...this.archives(), { name: CURRENT, ...this.manifest.current }];
  }

  /**
   * Entries with fromSeq <= seq < toSeq, in seq order; files holding no such seq are not read, and
   * lines outside the range are skipped by their key before being decoded.
   */
  loadFrom(fromSeq: number, toSeq = Number.POSITIVE_INFINITY): Entry[] {
    const entries: Entry[] = [];
    const inRange = (seq: number) => seq >= fromSeq && seq < toSeq;
    for (const file of this.filesHolding(fromSeq, toSeq)) {
      const lines = this.lines(file.name, (line) => {
        const key = lineKey(line);
        return key === undefined || inRange(key.seq);
      });
      for (const { entry } of lines) if (inRange(entry.seq)) entries.push(entry);
    }
    return isSorted(entries) ? entries : entries.sort((a, b) => a.seq - b.seq);
  }

  /**
   * The lines that may hold entries with fromSeq <= seq < toSeq, not yet decoded, in file order:
   * a line whose key is out of the range is skipped, one without a key is kept for its decoding
   * to tell. Decoded later, they are still this view's (published bytes never change); unlike
   * loadFrom, a damaged file is reported before a bad line in it. The lines hold their files'
   * text until they are let go.
   */
  linesFrom(fromSeq: number, toSeq = Number.POSITIVE_INFINITY): LazyLine[] {
    const out: LazyLine[] = [];
    for (const file of this.filesHolding(fromSeq, toSeq)) {
      this.eachLine(file.name, (line, decode) => {
        const seq = lineKey(line)?.seq;
        if (seq === undefined || (seq >= fromSeq && seq < toSeq))
          out.push({ seq, chars: line.length, decode });
      });
    }
    return out;
  }

  /** An entry by id, looked for from the newest file back (recent entries are the ones asked for). */
  find(entryId: string): (DecodedLine & { file: string }) | undefined {
    const marker = `"condense":{"id":${JSON.stringify(entryId)},`;
    for (const file of this.files().reverse()) {
      if (file.count === 0) continue;
      const hit = this.lines(file.name, (line) => line.includes(marker)).find((l) => l.entry.id === entryId);
      if (hit) return { ...hit, file: file.name };
    }
    return undefined;
  }
}

/** A line of a view not decoded yet: its seq when its key tells it, and its length. */
export interface LazyLine {
  seq: number | undefined;
  chars: number;
  decode(): DecodedLine;
}

/**
 * The entries of some lines that fall in [fromSeq, toSeq), in seq order, a page at a time: each
 * page about PAGE_TOKENS tokens of lines (four characters to a token) and at most PAGE_SEQS
 * entries, decoded as it is yielded. Lines out of seq order (an append that went back) are sorted
 * by their keys first; only a line without a key is decoded early, to learn its seq.
 */
export function* linePages(lines: readonly LazyLine[], fromSeq: number, toSeq: number): Generator<Entry[]> {
  const known = withSeqs(lines, fromSeq, toSeq);
  // A stable sort: lines of one seq stay in file order, as loadFrom returns them.
  const ordered = isAscending(known) ? known : [...known].sort((x, y) => x.seq - y.seq);
  let page: Entry[] = [];
  let chars = 0;
  for (const line of ordered) {
    const { entry } = line.decode();
    if (entry.seq < fromSeq || entry.seq >= toSeq) continue;
    page.push(entry);
    chars += line.chars;
    if (chars < 4 * PAGE_TOKENS && page.length < PAGE_SEQS) continue;
    yield page;
    page = [];
    chars = 0;
  }
  if (page.length > 0) yield page;
}

type KnownLine = LazyLine & { seq: number };

/** The lines with their seqs: one whose key did not tell is decoded (and dropped if out of range). */
function withSeqs(lines: readonly LazyLine[], fromSeq: number, toSeq: number): KnownLine[] {
  const known: KnownLine[] = [];
  for (const line of lines) {
    if (line.seq !== undefined) {
      known.push(line as KnownLine);
      continue;
    }
    const decoded = line.decode();
    const { seq } = decoded.entry;
    if (seq >= fromSeq && seq < toSeq) known.push({ seq, chars: line.chars, decode: () => decoded });
  }
  return known;
}

function isAscending(lines: readonly KnownLine[]): boolean {
  for (let i = 1; i < lines.length; i++) if (lines[i]!.seq < lines[i - 1]!.seq) return false;
  return true;
}

const MAX_ATTEMPTS = 50;

/** A file was renamed between finding it and reading it. */
class MovedError extends Error {
  constructor(readonly file: string) {
    super(`${file} moved while being read`);
  }
}

function damaged(dir: string, error: unknown): InputError {
  const file = error instanceof MovedError ? error.file : String((error as { path?: unknown }).path ?? dir);
  return new InputError('missing: the session folder lost a file that session.json lists', { file });
}

function isSorted(entries: readonly Entry[]): boolean {
  for (let i = 1; i < entries.length; i++) if (entries[i - 1]!.seq > entries[i]!.seq) return false;
  return true;
}
