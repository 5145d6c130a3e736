import type { ToolPart } from '../../model/parts.js';
import { toolOutputText } from '../../tokens/estimator.js';
import { shellSegments } from '../shell-words.js';

/**
 * What the user (or a policy acting for the user) says when a call is refused or cut short:
 * Claude Code's rejection ("The user doesn't want to proceed with this tool use… STOP what you
 * are doing"), interruptions, Codex and Gemini CLI cancellations, a browser policy's refusal.
 * Such a call is no failure, and its text is never an instruction for a resuming agent.
 */
const REJECTED =
  /^(?:the user doesn't want to (?:proceed|take this action)|\[?request interrupted by user|interrupted by user|user (?:rejected|denied|cancell?ed)|\[operation cancell?ed\]|tool (?:use|call|execution) (?:was )?(?:rejected|cancell?ed|aborted)|aborted by (?:the )?user|exec command rejected|the user (?:rejected|denied|cancell?ed|interrupted))|\b(?:rejected|denied|declined) (?:by the user|this action)\b/i;

/** The start of a call's output or error, where tools say that it was refused. */
function opening(part: ToolPart): string {
  const text = toolOutputText(part);
  const head = (text.length > 600 ? text.slice(0, 600) : text).replace(
    /^(?:Wall time:[^\n]*\n|Output:\s*)+/g,
    '',
  );
  // JSON-wrapped text outputs (`[{"type":"text","text":"…"}]`) say it inside the string.
  const quoted = /^\[?\{"type":"text","text":"/.exec(head);
  return (quoted ? head.slice(quoted[0].length) : head).trimStart();
}

/** A call the user rejected or interrupted, or a policy refused: no failure, no instruction. */
export function rejectedCall(part: ToolPart): boolean {
  if (part.state !== 'error' && part.state !== 'completed') return false;
  return REJECTED.test(opening(part));
}

export type CommandKind = 'state' | 'verify' | 'read' | 'other';

const RANK: Record<CommandKind, number> = { read: 0, other: 1, verify: 2, state: 3 };

/** Programs that change files, packages, repositories, services or remote records. */
const STATE_VERBS = new Set(
  'mkdir rm rmdir mv cp touch chmod chown ln tee truncate patch apply_patch unzip install'.split(' '),
);
/** Sub-commands that change state, per program. */
const STATE_SUBS: Record<string, RegExp> = {
  git: /^(?:commit|push|merge|rebase|reset|checkout|switch|tag|cherry-pick|revert|stash|add|rm|mv|apply|pull|clone|init|restore|am|worktree)$/,
  gh: /^(?:pr|issue|release|repo|workflow|secret|label|gist|api)$/,
  bd: /^(?:create|new|update|close|reopen|dep|comment|delete|assign|edit)$/,
  npm: /^(?:install|i|add|remove|rm|uninstall|un|ci|publish|update|up|link|version|init|pack)$/,
  pnpm: /^(?:install|i|add|remove|rm|uninstall|update|up|link|publish|init)$/,
  yarn: /^(?:install|add|remove|upgrade|up|link|publish|init)$/,
  bun: /^(?:install|i|add|remove|rm|update|link|publish|init)$/,
  pip: /^(?:install|uninstall)$/,
  pip3: /^(?:install|uninstall)$/,
  uv: /^(?:add|remove|sync|pip|lock)$/,
  poetry: /^(?:add|remove|install|update|lock)$/,
  cargo: /^(?:add|remove|install|publish|new|init|update)$/,
  go: /^(?:get|install|mod)$/,
  brew: /^(?:install|uninstall|upgrade|tap)$/,
  apt: /^(?:install|remove|purge|upgrade)$/,
  'apt-get': /^(?:install|remove|purge|upgrade)$/,
  docker: /^(?:build|run|push|rm|rmi|stop|start|restart|compose|tag|pull|create|exec|kill)$/,
  kubectl: /^(?:apply|delete|create|scale|rollout|patch|edit|set|label)$/,
  terraform: /^(?:apply|destroy|import|init)$/,
  helm: /^(?:install|upgrade|uninstall|rollback)$/,
  systemctl: /^(?:start|stop|restart|enable|disable|reload)$/,
};
/** Test, build, lint and type-check runs: they verify rather than change, and matter as much. */
const VERIFY_RUN =
  /^(?:test|tests|build|lint|check|typecheck|type-check|tsc|ci|e2e|verify|compile|format)(?:[:-][\w:-]*)?$/;
const VERIFY_VERBS = new Set(
  'vitest jest tsc pytest mocha ava tap make cmake ninja mvn gradle gradlew ruff mypy eslint biome tox nox bazel phpunit rspec ctest playwright'.split(
    ' ',
  ),
);
const VERIFY_SUBS: Record<string, RegExp> = {
  npm: /^(?:test|t|build)$/,
  pnpm: /^(?:test|build)$/,
  yarn: /^(?:test|build)$/,
  bun: /^(?:test|build)$/,
  go: /^(?:test|build|vet)$/,
  cargo: /^(?:test|build|check|clippy|bench)$/,
  dotnet: /^(?:build|test)$/,
  swift: /^(?:build|test)$/,
  deno: /^(?:test|check|lint)$/,
};
const READ_VERBS = new Set(
  'ls cat head tail less more grep egrep fgrep rg ag find fd stat file wc tree du df jq yq sed awk gawk nl which type echo printf pwd ps env printenv whoami date uname strings od xxd hexdump realpath readlink basename dirname diff cmp sort uniq cut tr column sleep true test [ lsof netstat id hostname cd pushd popd history'.split(
    ' ',
  ),
);
const PREFIX = /^(?:sudo|env|time|nohup|command|exec|nice|timeout|\w+=\S*|-\S+|\d+)$/;

function segmentKind(words: string[]): CommandKind {
  const ws = [...words];
  while (ws.length > 1 && PREFIX.test(ws[0]!)) ws.shift();
  const verb = (ws[0] ?? '').replace(/^.*\//, '');
  const operands = ws.slice(1).filter((w) => !w.startsWith('-'));
  const sub = operands[0] ?? '';
  if (verb === 'npx' || verb === 'pnpx' || verb === 'bunx')
    return segmentKind(ws.slice(1).filter((w) => w !== '-y'));
  if (verb === 'python' || verb === 'python3') {
    const m = ws.indexOf('-m');
    if (m >= 0 && /^(?:pytest|unittest|mypy|ruff)$/.test(ws[m + 1] ?? '')) return 'verify';
    if (m >= 0 && ws[m + 1] === 'pip') return segmentKind(ws.slice(m + 1));
    return 'other';
  }
  if (STATE_VERBS.has(verb)) return 'state';
  if (verb === 'sed') return ws.some((w) => w.startsWith('-i')) ? 'state' : 'read';
  if (verb === 'curl' || verb === 'wget')
    return ws.some((w) => /^(?:-X|--request)$/.test(w) || /^(?:-d|--data\S*|-F|--form|-o|-O|-T)$/.test(w))
      ? 'state'
      : 'read';
  if (STATE_SUBS[verb]?.test(sub)) {
    // `gh pr view`, `git stash list`, `git branch` alone: looking, not changing.
    if (/^(?:view|list|status|show|diff|checks)$/.test(operands[1] ?? '')) return 'read';
    if (verb === 'git' && sub === 'stash' && operands[1] === 'list') return 'read';
    return 'state';
  }
  if (verb === 'git') return sub === 'branch' && ws.some((w) => /^-[dDmM]$/.test(w)) ? 'state' : 'read';
  if (VERIFY_VERBS.has(verb)) return 'verify';
  if (VERIFY_SUBS[verb]?.test(sub)) return 'verify';
  if ((verb === 'npm' || verb === 'pnpm' || verb === 'yarn' || verb === 'bun') && sub === 'run')
    return VERIFY_RUN.test(operands[1] ?? '') ? 'verify' : 'other';
  if ((verb === 'yarn' || verb === 'pnpm') && VERIFY_RUN.test(sub)) return 'verify';
  if (READ_VERBS.has(verb) || verb === '') return 'read';
  return 'other';
}

/** What a shell command line does, by its most consequential simple command. */
export function commandKind(commandLine: string): CommandKind {
  let kind: CommandKind = 'read';
  for (const words of shellSegments(commandLine)) {
    const texts = words.map((w) => w.text);
    // Output redirected into a file changes that file.
    const redirect = texts.some((t, i) => /^\d*>>?$/.test(t) && !/^\/dev\//.test(texts[i + 1] ?? '/dev/'));
    const k =
      redirect || texts.some((t) => /^\d*>>?[^&>\s]/.test(t) && !t.includes('/dev/'))
        ? 'state'
        : segmentKind(texts);
    if (RANK[k] > RANK[kind]) kind = k;
  }
  return kind;
}

/** Programs whose exit status 1 means "nothing found" or "they differ", not an error. */
const NO_MATCH_VERBS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'diff', 'cmp', 'test', '[', 'git']);
const ERROR_SAID =
  /error|denied|not permitted|no such file|not found|cannot|can't|invalid|usage:|unknown|fatal/i;

/**
 * A search that found nothing (grep, rg, diff, test exiting with 1 and printing no error): an
 * answer, not a failure. Judged on the pipeline's last command, whose status the shell reports.
 */
export function noMatchExit(commandLine: string, exit: number | undefined, output: string): boolean {
  if (exit !== 1) return false;
  const last =
    shellSegments(commandLine)
      .at(-1)
      ?.map((w) => w.text) ?? [];
  while (last.length > 1 && PREFIX.test(last[0]!)) last.shift();
  const verb = (last[0] ?? '').replace(/^.*\//, '');
  if (!NO_MATCH_VERBS.has(verb) || (verb === 'git' && last[1] !== 'grep' && last[1] !== 'diff')) return false;
  const printed = output
    .split('\n')
    .filter(
      (l) => !/^(?:Chunk ID|Wall time|Process exited|Original token count|Output:|Exit code)/.test(l.trim()),
    );
  return !printed.some((l) => ERROR_SAID.test(l));
}

/** The directory a call ran in, when its input says (Codex `workdir`, `cwd`, Gemini `directory`, `cd X &&`). */
export function callDirectory(part: ToolPart, command: string | undefined): string | undefined {
  const input = part.input;
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    for (const f of ['workdir', 'cwd', 'directory']) {
      const v = input[f];
      if (typeof v === 'string' && v !== '') return v.length > 1 ? v.replace(/\/+$/, '') : v;
    }
  }
  const cd = command === undefined ? null : /^\s*cd\s+("[^"]+"|'[^']+'|[^\s;&|]+)\s*(?:&&|;)/.exec(command);
  return cd ? cd[1]!.replace(/^["']|["']$/g, '') : undefined;
}
