/**
 * Shared helpers of the end-to-end tests over the real transcripts in ../shared/data: loading
 * each family of sessions through the real importers, rendering a window to every request
 * format, and the files a session read or modified, computed independently of src/compact.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ContextFormat, renderContext, type ViewOptions, validate } from '../../src/context/index.js';
import { type ImportedSession, parseTranscript } from '../../src/import/index.js';
import type { Entry } from '../../src/model/entry.js';
import type { Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';

/** The shared real-data folder (never copied into the repository). */
export const DATA_DIR = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
export const HAS_DATA = existsSync(DATA_DIR);

/** Prints why a data-driven suite is skipped, so a green run without data is never mistaken for a pass. */
export function noticeIfNoData(suite: string): void {
  if (!HAS_DATA) console.warn(`[e2e] ${suite}: SKIPPED, real data folder ${DATA_DIR} is absent`);
}

export const FORMATS: readonly ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];

export type Family = 'claude-code' | 'codex' | 'gemini-cli' | 'tau-bench' | 'swe-agent';

export interface RealSession {
  family: Family;
  /** Path relative to the data folder, plus `#run` for one run of a multi-run file. */
  name: string;
  imported: ImportedSession;
}

function filesUnder(folder: string, extension: string): string[] {
  const root = join(DATA_DIR, folder);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(extension)) out.push(path);
    }
  };
  walk(root);
  return out;
}

const FOLDERS: Record<Family, [string, string]> = {
  'claude-code': ['agent-sessions/claude-code', '.jsonl'],
  codex: ['agent-sessions/codex', '.jsonl'],
  'gemini-cli': ['agent-sessions/gemini-cli', '.json'],
  'tau-bench': ['tau-bench', '.json'],
  'swe-agent': ['swe-agent/trajectories', '.traj'],
};

export interface LoadOptions {
  /** Keep every n-th run of multi-run files (tau-bench); 1 keeps all. */
  every?: number;
  /** Keep only sessions holding tool calls (SWE-agent function-calling trajectories). */
  withToolsOnly?: boolean;
}

/** Every session of a family, imported with the real importers (parseTranscript, format detected). */
export function loadFamily(family: Family, opts: LoadOptions = {}): RealSession[] {
  const [folder, extension] = FOLDERS[family];
  const every = opts.every ?? 1;
  const out: RealSession[] = [];
  for (const file of filesUnder(folder, extension)) {
    const parsed = parseTranscript(readFileSync(file, 'utf8'), { file });
    const runs = Array.isArray(parsed) ? parsed : [parsed];
    const name = relative(DATA_DIR, file);
    runs.forEach((imported, i) => {
      if (i % every !== 0) return;
      if (opts.withToolsOnly && toolParts(imported.messages.map((m) => m.message)).length === 0) return;
      out.push({ family, name: runs.length > 1 ? `${name}#${i}` : name, imported });
    });
  }
  return out;
}

export function toolParts(messages: readonly Message[]): ToolPart[] {
  return messages.flatMap((m) => m.parts.filter((p): p is ToolPart => p.type === 'tool'));
}

export type Payloads = { [F in ContextFormat]: unknown };

/** The window rendered to every format, with the view options a session would use. */
export function renderAll(entries: Entry[], view: ViewOptions): Payloads {
  const out = {} as Payloads;
  for (const format of FORMATS) out[format] = renderContext(entries, { ...view, format });
  return out;
}

/** Every violation of every format, labelled with the format, for readable failure messages. */
export function violationsOf(payloads: Partial<Payloads>): string[] {
  return FORMATS.flatMap((format) =>
    format in payloads
      ? validate(payloads[format], format).map((v) => `${format}[${v.index}] ${v.rule}: ${v.message}`)
      : [],
  );
}

/** Non-overlapping occurrences of `needle` in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * Tools that read or write one file named by an explicit input field, per source agent. Search
 * tools (Grep, Glob, find_file) name folders or patterns, and shell commands are free text: both
 * are left out on purpose, so that the expected set is certain rather than guessed.
 */
const PATH_FIELD_OF: Record<string, string> = {
  Read: 'file_path', // Claude Code
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
  read_file: 'file_path', // Gemini CLI
  write_file: 'file_path',
  replace: 'file_path',
  open: 'path', // SWE-agent
  create: 'filename',
};
/** Codex's apply_patch input is the patch text; its headers name each file explicitly. */
const PATCH_HEADER = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

/** The files one finished tool call read or modified, from explicit path fields only. */
export function explicitFiles(part: ToolPart): string[] {
  if (part.state !== 'completed') return [];
  if (part.name === 'apply_patch' && typeof part.input === 'string') {
    return [...part.input.matchAll(PATCH_HEADER)].map((m) => m[1]!.trim());
  }
  const field = PATH_FIELD_OF[part.name];
  const input = part.input;
  if (field === undefined || input === null || typeof input !== 'object' || Array.isArray(input)) return [];
  const value = input[field];
  return typeof value === 'string' && value !== '' ? [value] : [];
}

export const stats = {
  mean: (a: number[]) => (a.length === 0 ? Number.NaN : a.reduce((s, x) => s + x, 0) / a.length),
  quantile: (a: number[], q: number) =>
    a.length === 0
      ? Number.NaN
      : [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * q))]!,
  pct: (x: number) => `${(100 * x).toFixed(1)}%`,
};

/** The working directory an importer recorded on the session's messages, if any. */
export function sessionCwd(messages: readonly Message[]): string | undefined {
  for (const m of messages) if (typeof m.metadata?.cwd === 'string') return m.metadata.cwd;
  return undefined;
}

/**
 * The ways a summary may spell a file: as the tool named it, relative to the working directory,
 * and from the home folder (`~/…`), without a trailing slash. Summaries name each file once,
 * relative where they can.
 */
export function spellings(raw: string, cwd: string | undefined): string[] {
  const path = raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
  const out = [raw, path];
  if (cwd && path.startsWith(`${cwd}/`)) out.push(path.slice(cwd.length + 1));
  const home = cwd ? /^\/(?:Users|home)\/[^/]+/.exec(cwd)?.[0] : undefined;
  if (home && path.startsWith(`${home}/`)) out.push(`~${path.slice(home.length)}`);
  return out;
}
