import { describe, expect, it } from 'vitest';
import { extractConstraints, toolExitCode, toolFailed } from '../../src/compact/facts.js';
import { shellFiles, toolFiles } from '../../src/compact/paths.js';
import { unresolvedFailures } from '../../src/compact/span.js';
import { assistant, entries, failedTool, tool } from './helpers.js';

describe('files touched by tool calls', () => {
  it.each([
    ['Read', { file_path: '/repo/src/a.ts' }, ['/repo/src/a.ts'], []],
    ['Edit', { file_path: 'src/b.ts', old_string: 'x', new_string: 'y' }, [], ['src/b.ts']],
    ['write_file', { file_path: 'out/c.json', content: '{}' }, [], ['out/c.json']],
    ['read_file', { absolute_path: '/abs/d.md' }, ['/abs/d.md'], []],
    ['read_many_files', { paths: ['e.ts', 'f.ts'] }, ['e.ts', 'f.ts'], []],
    ['str_replace_based_edit_tool', { command: 'view', path: 'g.ts' }, ['g.ts'], []],
    ['str_replace_based_edit_tool', { command: 'create', path: 'h.ts', file_text: '' }, [], ['h.ts']],
    [
      'apply_patch',
      { input: '*** Begin Patch\n*** Update File: src/i.ts\n@@\n*** Add File: src/j.ts\n*** End Patch' },
      [],
      ['src/i.ts', 'src/j.ts'],
    ],
    ['TodoWrite', { todos: [] }, [], []],
  ])('%s %j', (name, input, read, modified) => {
    expect(toolFiles(tool(name, input))).toEqual({ read, modified });
  });

  it('reads shell commands: reads, redirections, in-place edits, heredocs', () => {
    expect(shellFiles('cat src/a.ts | grep foo')).toEqual({ read: ['src/a.ts'], modified: [] });
    expect(shellFiles('npm test 2>&1 > logs/test.log')).toEqual({ read: [], modified: ['logs/test.log'] });
    expect(shellFiles("sed -i 's/a/b/' src/x.ts && cd /repo && ls docs/")).toEqual({
      read: ['docs/'],
      modified: ['src/x.ts'],
    });
    expect(shellFiles("cat > notes/todo.md <<'EOF'\nread ./inside/heredoc.ts\nEOF")).toEqual({
      read: [],
      modified: ['notes/todo.md'],
    });
    expect(shellFiles('cp a/src.txt b/dst.txt')).toEqual({ read: ['a/src.txt'], modified: ['b/dst.txt'] });
    expect(shellFiles('curl https://example.com/x.json -o /dev/null')).toEqual({ read: [], modified: [] });
  });

  it('codex-style command arrays unwrap', () => {
    const part = tool('shell', { command: ['bash', '-lc', 'cat README.md'] });
    expect(toolFiles(part)).toEqual({ read: ['README.md'], modified: [] });
  });
});

describe('failures', () => {
  it('exit codes from fields or text, error states', () => {
    expect(toolExitCode(tool('bash', { command: 'x' }, { exitCode: 2 }))).toBe(2);
    expect(
      toolExitCode(tool('shell', { command: 'x' }, { output: 'boom', metadata: { exit_code: 1 } })),
    ).toBe(1);
    expect(toolExitCode(tool('shell', { command: 'x' }, 'Exit code: 127\nWall time: 0.1s'))).toBe(127);
    expect(toolFailed(tool('bash', { command: 'x' }, { exitCode: 0 }))).toBe(false);
    expect(toolFailed(failedTool('edit', { path: 'a' }, 'no match'))).toBe(true);
  });

  it('a later success of the same command resolves an earlier failure', () => {
    const log = entries([
      assistant('', tool('bash', { command: 'npm test' }, { exitCode: 1 })),
      assistant('', tool('bash', { command: 'npm run lint' }, { exitCode: 1 })),
      assistant('', tool('bash', { command: 'npm test' }, { exitCode: 0 })),
    ]);
    expect(unresolvedFailures(log)).toEqual(['npm run lint → exit 1']);
    expect(
      unresolvedFailures(entries([assistant('', tool('bash', { command: 'make' }, { exitCode: 0 }))]), [
        'make → exit 2',
      ]),
    ).toEqual([]);
    expect(unresolvedFailures([], ['make → exit 2'])).toEqual(['make → exit 2']);
  });
});

describe('constraints', () => {
  it('collects rule sentences verbatim', () => {
    const text =
      "Please refactor the parser. Never push to main! You must keep the public API stable.\n- Don't touch vendor/";
    expect(extractConstraints(text)).toEqual([
      'Never push to main!',
      'You must keep the public API stable.',
      "Don't touch vendor/",
    ]);
  });
});
