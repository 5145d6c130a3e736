import type { JsonValue } from '../model/json.js';
import type { ToolPart } from '../model/parts.js';
import { shellSegments, type Word } from './shell-words.js';

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

const DOTFILES =
  /^\.(env(\.\w+)?|gitignore|gitattributes|npmrc|nvmrc|prettierrc|eslintrc|editorconfig|bashrc|zshrc|profile|dockerignore)$/;

/**
 * A token that looks like a file path: has a slash or a file name with an extension; not a flag,
 * URL, glob, expansion, git range (`main..HEAD`) or jq-style filter (`.type`).
 */
export function looksLikePath(token: string): boolean {
  if (token.length < 2 || token.length > 300) return false;
  if (/^[-+]/.test(token) || /[*?{}$`|<>=;&()'"\s]/.test(token) || /^\w+:\/\//.test(token)) return false;
  if (/^\d+(\.\d+)*$/.test(token) || /^\/(dev|proc)\//.test(token)) return false;
  if (/\.\./.test(token) && !/^(\.\.\/)+[^.]/.test(token) && !/\/\.\.\//.test(token)) return false;
  if (DOTFILES.test(token)) return true;
  return token.includes('/') || /[^/.]\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(token);
}

/** Extensions of files (not of module names like `ash.codegen`): what an unknown command's argument must have. */
const FILE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|json[c5l]?|md|mdx|txt|rst|py|pyi|ipynb|rb|go|rs|java|kts?|scala|swift|c|h|cc|cpp|hpp|cs|php|ex|exs|erl|hs|ml|lua|r|dart|vue|svelte|sh|bash|zsh|fish|ps1|ya?ml|toml|ini|cfg|conf|env|xml|html?|css|scss|less|sql|csv|tsv|lock|log|proto|graphql|gradle|properties|tf|dockerfile|vtt|pdf|png|jpe?g|gif|svg|webp|zip|gz|tgz|tar|db|sqlite|wasm|patch|diff)$/i;

const READ_COMMANDS = new Set(
  'cat head tail less more grep egrep fgrep rg ag ls wc diff find stat file nl sed awk gawk jq tree bat'.split(
    ' ',
  ),
);
const WRITE_COMMANDS = new Set(['rm', 'touch', 'mkdir', 'rmdir', 'chmod', 'chown', 'truncate', 'tee']);
/** Commands whose first operand is a pattern or a program, not a file. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'jq', 'awk', 'gawk', 'sed']);
const PATTERN_FLAGS = new Set(['-e', '-f', '--regexp', '--file', '--expression', '--from-file']);
const NOT_FILE_VERBS = new Set([
  'cd',
  'pushd',
  'echo',
  'printf',
  'export',
  'source',
  'which',
  'type',
  'alias',
]);
const PREFIXES = /^(sudo|env|time|xargs|nohup|command|exec|\w+=\S*)$/;
const HEREDOC = /<<-?\s*['"]?(\w+)['"]?([^\n]*)\n[\s\S]*?\n\1(?=\n|$)/g;

/** Words of one simple command that name files, and whether the command changes them. */
function segmentFiles(words: Word[], out: ToolFiles): void {
  const ws = [...words];
  while (ws.length > 0 && PREFIXES.test(ws[0]!.text)) ws.shift();
  const verb = ws.shift()?.text.replace(/^.*\//, '');
  if (verb === undefined || NOT_FILE_VERBS.has(verb)) return;
  let operands = ws.filter((w, i) => !w.text.startsWith('-') && !PATTERN_FLAGS.has(ws[i - 1]?.text ?? ''));
  if (PATTERN_FIRST.has(verb) && !ws.some((w) => PATTERN_FLAGS.has(w.text) || w.text.startsWith('--regexp=')))
    operands = operands.slice(1);
  if (verb === 'git') {
    gitFiles(ws, out);
    return;
  }
  const known = READ_COMMANDS.has(verb) || WRITE_COMMANDS.has(verb) || verb === 'mv' || verb === 'cp';
  // A quoted word may hold spaces ("My Notes.md"): they do not make it less of a path.
  const pathy = (w: Word) => looksLikePath(w.quoted ? w.text.replace(/ /g, '_') : w.text);
  const args = operands
    .filter((w) => pathy(w) && (known || FILE_EXTENSION.test(w.text) || w.text.includes('/')))
    .map((w) => w.text);
  if (WRITE_COMMANDS.has(verb) || (verb === 'sed' && ws.some((w) => w.text.startsWith('-i'))))
    out.modified.push(...args);
  else if (verb === 'mv') out.modified.push(...args);
  else if (verb === 'cp') {
    out.read.push(...args.slice(0, -1));
    out.modified.push(...args.slice(-1));
  } else out.read.push(...args);
}

/** git names files after `--`, or as operands with a file extension (other operands are refs). */
function gitFiles(ws: Word[], out: ToolFiles): void {
  const sub = ws.find((w) => !w.text.startsWith('-'))?.text;
  const dashes = ws.findIndex((w) => w.text === '--');
  const files = ws
    .filter((w, i) => w.text !== sub && (dashes >= 0 ? i > dashes : FILE_EXTENSION.test(w.text)))
    .map((w) => w.text)
    .filter(looksLikePath);
  if (sub === 'rm' || sub === 'mv' || sub === 'restore' || sub === 'checkout') out.modified.push(...files);
  else out.read.push(...files);
}

/** Files read and modified by one shell command line (pipelines and && chains split). */
export function shellFiles(commandLine: string): ToolFiles {
  // A heredoc body is data, not commands: keep only the line that opens it.
  const command = commandLine.includes('<<')
    ? commandLine.replace(HEREDOC, (_m, _tag, rest: string) => rest)
    : commandLine;
  const out: ToolFiles = { read: [], modified: patchFiles(commandLine) };
  if (out.modified.length > 0 && /apply_patch|\*\*\* Begin Patch/.test(commandLine)) return out;
  for (const words of shellSegments(command)) {
    const kept: Word[] = [];
    for (let i = 0; i < words.length; i++) {
      // Redirections: `> file`, `>>file`, `2>&1`, `< file`.
      const m = /^(\d*|&)(>>?|<)(.*)$/.exec(words[i]!.text);
      if (!m) {
        kept.push(words[i]!);
        continue;
      }
      const target = m[3] !== '' ? m[3]! : (words[++i]?.text ?? '');
      if (!looksLikePath(target) || target.startsWith('/dev/') || target.startsWith('&')) continue;
      (m[2] === '<' ? out.read : out.modified).push(target);
    }
    segmentFiles(kept, out);
  }
  return out;
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
