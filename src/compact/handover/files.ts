import { posix } from 'node:path';
import type { ToolPart } from '../../model/parts.js';
import { toolOutputText } from '../../tokens/estimator.js';
import { normalizePath, type PathBase } from '../path-normal.js';
import { looksLikePath, toolFiles } from '../paths.js';
import { shellSegments } from '../shell-words.js';

/** One path a call named, what the call did with it, and what the call says the path is. */
export interface PathNote {
  path: string;
  tool: string;
  modified: boolean;
  failed: boolean;
  /** The call failed because the path does not exist. */
  missing?: boolean;
  /** The directory the call ran in, when it was not the session's (relative paths start there). */
  dir?: string;
  /** The tool treated it as a folder (listed, searched, entered, created as one). */
  isDir?: boolean;
  /** The tool treated it as a file (read its lines, wrote it, edited it). */
  isFile?: boolean;
}

export interface FileUse {
  path: string;
  read: boolean;
  modified: boolean;
  tools: Set<string>;
  uses: number;
}

/** Tools that list or search folders: their path field names a folder (or, with an extension, a file). */
const FOLDER_TOOLS =
  /^(?:glob|grep|ls|list_?dir(?:ectory)?|search_file_content|grep_search|find_files?|file_search|codebase_search)$/i;
/** Tools whose successful call proves the path is a file. */
const FILE_TOOLS =
  /^(?:read|write|edit|multiedit|notebookedit|read_file|write_file|replace|edit_file|create_file|view|str_replace_based_edit_tool|str_replace_editor|apply_patch|open|create)$/i;
/** Shell programs whose operands are folders, and those whose operands are files. */
const FOLDER_VERBS = new Set(['cd', 'pushd', 'find', 'fd', 'tree', 'du', 'mkdir']);
const FILE_VERBS = new Set([
  'cat',
  'head',
  'tail',
  'sed',
  'wc',
  'nl',
  'less',
  'more',
  'jq',
  'awk',
  'touch',
  'bat',
]);
const SEARCH_VERBS = new Set(['rg', 'grep', 'egrep', 'ag']);
const HAS_EXTENSION = /[^/.]\.[A-Za-z0-9]{1,8}$/;
const DOTFILE =
  /(?:^|\/)\.(?:env(?:\.\w+)?|gitignore|gitattributes|gitmodules|npmrc|nvmrc|prettierrc|eslintrc|editorconfig|bashrc|zshrc|profile|dockerignore|babelrc)$/;

function folderOperands(command: string): string[] {
  const out: string[] = [];
  for (const words of shellSegments(command)) {
    const ws = words.map((w) => w.text);
    while (ws.length > 1 && /^(?:sudo|env|time|\w+=\S*)$/.test(ws[0]!)) ws.shift();
    const verb = (ws[0] ?? '').replace(/^.*\//, '');
    const operands = ws.slice(1).filter((w) => !w.startsWith('-') && looksLikePath(w));
    if (FOLDER_VERBS.has(verb)) out.push(...(verb === 'find' ? operands.slice(0, 1) : operands));
    // `ls dir`, `rg pattern dir`: operands without an extension are the folders listed or searched.
    else if (verb === 'ls' || SEARCH_VERBS.has(verb))
      out.push(...operands.filter((w) => !HAS_EXTENSION.test(w)));
    out.push(...ws.filter((w) => w.length > 1 && w.endsWith('/') && looksLikePath(w)));
  }
  return out;
}

function fileOperands(command: string): Set<string> {
  const out = new Set<string>();
  for (const words of shellSegments(command)) {
    const ws = words.map((w) => w.text);
    const verb = (ws[0] ?? '').replace(/^.*\//, '');
    if (FILE_VERBS.has(verb)) for (const w of ws.slice(1)) if (!w.startsWith('-')) out.add(w);
  }
  return out;
}

/** The paths one call named, each with the call's own evidence of what it is. */
export function notePaths(
  part: ToolPart,
  command: string | undefined,
  failed: boolean,
  dir: string | undefined,
): PathNote[] {
  const files = toolFiles(part);
  const notes: PathNote[] = [];
  const base = { tool: part.name, failed, ...(dir === undefined ? {} : { dir }) };
  const folders = command === undefined ? new Set<string>() : new Set(folderOperands(command));
  const asFiles = command === undefined ? new Set<string>() : fileOperands(command);
  const folderTool = command === undefined && FOLDER_TOOLS.test(part.name);
  const fileTool = command === undefined && FILE_TOOLS.test(part.name);
  const said = failed ? toolOutputText(part).slice(0, 400) : '';
  const eisdir = /EISDIR|is a directory/i.test(said);
  const missing =
    /does not exist|no such file|ENOENT|file not found|cannot find (?:the )?(?:file|path)|no matches found/i.test(
      said,
    );
  const gone = missing ? { missing } : {};
  for (const [list, modified] of [
    [files.read, false],
    [files.modified, true],
  ] as const) {
    for (const path of list) {
      const isDir =
        folders.has(path) || path.endsWith('/') || eisdir || (folderTool && !HAS_EXTENSION.test(path));
      const isFile = !isDir && !failed && (fileTool || modified || asFiles.has(path));
      notes.push({
        ...base,
        ...gone,
        path,
        modified,
        ...(isDir ? { isDir } : {}),
        ...(isFile ? { isFile } : {}),
      });
    }
  }
  for (const path of folders)
    if (!notes.some((n) => n.path === path)) notes.push({ ...base, path, modified: false, isDir: true });
  return notes;
}

/** The path as the session spells it: resolved from the call's folder, then relative to the working directory. */
function spelled(note: PathNote, base: PathBase): string {
  const p = note.path;
  if (note.dir === undefined || p.startsWith('/') || p.startsWith('~')) return normalizePath(p, base);
  const from = note.dir.startsWith('/') || base.cwd === undefined ? note.dir : posix.join(base.cwd, note.dir);
  return normalizePath(posix.join(from, p), base);
}

/**
 * The real files among the noted paths, by their normalized spelling, in order of first use. A
 * path is a folder, and left out, when a tool treated it as one or another path lies inside it;
 * a path is a file when a tool treated it as one, or it has a file extension and no tool says
 * otherwise. A path that only failed calls named, one saying it does not exist, is left out too.
 */
export function realFiles(notes: readonly PathNote[], base: PathBase): Map<string, FileUse> {
  const byPath = new Map<string, { notes: PathNote[] }>();
  // A repeated call's notes are the same objects (see analyzeSpan): each is spelled once.
  const spelling = new Map<PathNote, string>();
  for (const n of notes) {
    let path = spelling.get(n);
    if (path === undefined) {
      path = spelled(n, base);
      spelling.set(n, path);
    }
    if (path === '.' || path === '' || path === '~' || path === '/') continue;
    const entry = byPath.get(path) ?? { notes: [] };
    entry.notes.push(n);
    byPath.set(path, entry);
  }
  const folders = new Set<string>();
  for (const path of byPath.keys()) {
    for (let at = path.indexOf('/', 1); at > 0; at = path.indexOf('/', at + 1))
      folders.add(path.slice(0, at));
  }
  const out = new Map<string, FileUse>();
  for (const [path, { notes: ns }] of byPath) {
    if (folders.has(path) || ns.some((n) => n.isDir)) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const proven = ns.some((n) => n.isFile);
    const looksFile =
      (HAS_EXTENSION.test(name) && !name.startsWith('.')) || DOTFILE.test(path) || /\.\w+\.\w+$/.test(name);
    if (!proven && !looksFile) continue;
    if (ns.every((n) => n.failed) && ns.some((n) => n.missing)) continue;
    const use: FileUse = { path, read: false, modified: false, tools: new Set(), uses: 0 };
    for (const n of ns) {
      if (n.failed && n.modified) use.read = true;
      else if (n.modified) use.modified = true;
      else use.read = true;
      use.tools.add(n.tool);
      use.uses++;
    }
    out.set(path, use);
  }
  return out;
}
