import type { JsonValue } from '../model/json.js';
import type { ToolPart } from '../model/parts.js';

/** Files a tool call touched, split by what it did to them. */
export interface ToolFiles {
  read: string[];
  modified: string[];
}

const PATH_FIELDS = [
  'path',
  'file_path',
  'filePath',
  'file',
  'filename',
  'absolute_path',
  'notebook_path',
  'target_file',
];
const PATH_LIST_FIELDS = ['paths', 'files', 'file_paths'];
const MODIFY_TOOL =
  /write|edit|str_?replace|create|patch|insert|delete|remove|rename|move|mkdir|replace|append/i;
const SHELL_TOOL =
  /^(bash|shell|sh|exec|exec_command|run_shell_command|terminal|run_terminal_cmd|local_shell|execute_command|command)$/i;
/** Sub-commands of view/edit multiplexing tools (str_replace_based_edit_tool and similar). */
const READ_SUBCOMMANDS = new Set(['view', 'read', 'list', 'ls', 'cat', 'show']);

function asObject(v: JsonValue): Record<string, JsonValue> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

/** The shell command line a tool call ran, if it is a shell call. Arrays like ['bash','-lc',cmd] unwrap. */
export function shellCommand(part: ToolPart): string | undefined {
  const input = asObject(part.input);
  const raw = input?.command ?? input?.cmd ?? (typeof part.input === 'string' ? part.input : undefined);
  let command: string | undefined;
  if (typeof raw === 'string') command = raw;
  else if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) {
    const args = raw as string[];
    const shellIdx = args.findIndex((a) => a === '-c' || a === '-lc');
    command = shellIdx >= 0 && shellIdx === args.length - 2 ? args.at(-1) : args.join(' ');
  }
  if (command === undefined) return undefined;
  if (SHELL_TOOL.test(part.name) || Array.isArray(raw)) return command;
  return undefined;
}

const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;
const PATCH_MOVE = /^\*\*\* Move to: (.+)$/gm;

function patchFiles(text: string): string[] {
  if (!text.includes('*** ')) return [];
  const out: string[] = [];
  for (const m of text.matchAll(PATCH_FILE)) out.push(m[1]!.trim());
  for (const m of text.matchAll(PATCH_MOVE)) out.push(m[1]!.trim());
  return out;
}

const READ_COMMANDS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'grep',
  'rg',
  'ls',
  'wc',
  'diff',
  'find',
  'stat',
  'file',
  'nl',
  'sed',
  'awk',
  'jq',
  'tree',
  'bat',
]);
const WRITE_COMMANDS = new Set(['rm', 'touch', 'mkdir', 'rmdir', 'chmod', 'chown', 'truncate']);

/** A token that looks like a file path: has a slash or an extension, is not a flag, URL or glob. */
export function looksLikePath(token: string): boolean {
  if (token.length < 2 || token.length > 300) return false;
  if (/^[-+]/.test(token) || /[*?{}$`|<>=;&()'"\s]/.test(token) || /^\w+:\/\//.test(token)) return false;
  if (/^\d+(\.\d+)*$/.test(token) || /^\/(dev|proc)\//.test(token)) return false;
  return token.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(token);
}

const HEREDOC = /<<-?\s*['"]?(\w+)['"]?([^\n]*)\n[\s\S]*?\n\1(?=\n|$)/g;
const NOT_FILE_VERBS = new Set(['cd', 'pushd', 'echo', 'printf', 'export', 'source', 'which', 'type']);

/** Files read and modified by one shell command line (pipelines and && chains split). */
export function shellFiles(commandLine: string): ToolFiles {
  // A heredoc body is data, not commands: keep only the line that opens it.
  const command = commandLine.includes('<<')
    ? commandLine.replace(HEREDOC, (_m, _tag, rest: string) => rest)
    : commandLine;
  const read: string[] = [];
  const modified: string[] = [];
  modified.push(...patchFiles(commandLine));
  for (const m of command.matchAll(/(?:^|[^<>&\d])>>?\s*([^\s;&|<>]+)/g)) {
    if (looksLikePath(m[1]!) && !m[1]!.startsWith('/dev/')) modified.push(m[1]!);
  }
  if (modified.length > 0 && /apply_patch|\*\*\* Begin Patch/.test(commandLine)) return { read, modified };
  for (const segment of command.split(/&&|\|\||[;|\n]/)) {
    const tokens = segment
      .trim()
      .split(/\s+/)
      .filter((t) => t !== '');
    while (tokens.length > 0 && /^(sudo|env|time|xargs|\w+=\S*)$/.test(tokens[0]!)) tokens.shift();
    const verb = tokens.shift()?.replace(/^.*\//, '');
    if (verb === undefined || NOT_FILE_VERBS.has(verb)) continue;
    const args = tokens.filter((t, i) => looksLikePath(t) && !/^>/.test(tokens[i - 1] ?? ''));
    if (
      verb === 'tee' ||
      WRITE_COMMANDS.has(verb) ||
      (verb === 'sed' && tokens.some((t) => t.startsWith('-i')))
    ) {
      modified.push(...args);
    } else if (verb === 'mv' || verb === 'cp') {
      if (verb === 'mv') modified.push(...args);
      else {
        read.push(...args.slice(0, -1));
        modified.push(...args.slice(-1));
      }
    } else if (READ_COMMANDS.has(verb) || args.length > 0) {
      read.push(...args);
    }
  }
  return { read, modified };
}

/** Files a tool call read or modified, from its input fields, its shell command or its patch text. */
export function toolFiles(part: ToolPart): ToolFiles {
  const command = shellCommand(part);
  if (command !== undefined) return shellFiles(command);
  const input = asObject(part.input);
  const paths: string[] = [];
  if (input !== undefined) {
    for (const f of PATH_FIELDS)
      if (typeof input[f] === 'string' && input[f] !== '') paths.push(input[f] as string);
    for (const f of PATH_LIST_FIELDS) {
      const list = input[f];
      if (Array.isArray(list)) for (const p of list) if (typeof p === 'string') paths.push(p);
    }
    for (const v of Object.values(input))
      if (typeof v === 'string' && v.includes('*** ')) paths.push(...patchFiles(v));
  } else if (typeof part.input === 'string') {
    paths.push(...patchFiles(part.input));
  }
  const sub = typeof input?.command === 'string' ? input.command.toLowerCase() : undefined;
  const modifies =
    sub !== undefined && READ_SUBCOMMANDS.has(sub)
      ? false
      : MODIFY_TOOL.test(part.name) || /patch/i.test(sub ?? '');
  const unique = [...new Set(paths)];
  return modifies ? { read: [], modified: unique } : { read: unique, modified: [] };
}
