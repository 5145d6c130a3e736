import { describe, expect, it } from 'vitest';
import {
  buildHandover,
  handoverAndDetails,
  handoverDetails,
  renderHandover,
} from '../../src/compact/handover/index.js';
import type { Message } from '../../src/model/message.js';
import { assistant, entries, estimator, failedTool, tool, user } from './helpers.js';

const bash = (command: string, output: string, extra: Record<string, string> = {}) =>
  tool('Bash', { command, ...extra }, output);
const handover = (messages: Message[], latestRequest?: string) =>
  buildHandover({ span: entries(messages), ...(latestRequest ? { latestRequest } : {}) });
const rendered = (messages: Message[]) =>
  renderHandover(handover(messages), { budgetTokens: 4_000, estimator }).text;

/** Claude Code's answer when the user rejects a call. */
const REJECTION =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

describe('open failures: the last attempt failed and nothing later superseded it', () => {
  it('git add refused on ignored paths, then git add -f: fixed, not open', () => {
    const h = handover([
      user('Commit the generated docs'),
      assistant(
        '',
        bash(
          'git add docs/api.md',
          'Exit code 1\nThe following paths are ignored by one of your .gitignore files:\ndocs/api.md',
        ),
      ),
      assistant('', bash('git add -f docs/api.md', '')),
      assistant('', bash('git commit -m "Add API docs"', '[main 3f9c2ab] Add API docs\n 1 file changed')),
    ]);
    expect(h.openFailures).toEqual([]);
    expect(h.commands.map((c) => [c.label, c.status])).toEqual([
      ['git add docs/api.md', 'fixed'],
      ['git add -f docs/api.md', 'ok'],
      ['git commit -m "Add API docs"', 'ok'],
    ]);
    expect(h.commands[0]!.fixedBy).toBe('git add -f docs/api.md');
  });

  it('a rejected or interrupted call is no failure, and its words never reach the handover', () => {
    const messages = [
      user('show tools and store response in file'),
      assistant('', failedTool('Write', { file_path: '/r/available-tools.md', content: 'x' }, REJECTION)),
      {
        role: 'user' as const,
        parts: [{ type: 'text' as const, text: '[Request interrupted by user for tool use]' }],
        metadata: { synthetic: true },
      },
      user('explore more of current repo'),
    ];
    const h = handover(messages);
    expect(h.openFailures).toEqual([]);
    expect(h.interrupted).toEqual(['Write /r/available-tools.md (rejected or interrupted)']);
    // The rejected write changed no file, and the file never existed.
    expect(h.files).toEqual({ modified: [], read: [] });
    expect(rendered(messages)).not.toMatch(/STOP what you are doing|doesn't want to proceed/);
  });

  it('a command run with other options after failing is fixed; a probe by a later probe of the same program', () => {
    const h = handover([
      user('run codex'),
      assistant(
        '',
        bash('codemie-codex --task "Calculate 5 factorial"', 'Exit code 1\nCodex requires compatible models'),
      ),
      assistant('', bash('codemie-codex --profile ollama --task "Calculate 5 factorial"', 'Session 63fcfe')),
      assistant(
        '',
        bash('ls -lh ~/.claude/projects/p/ae6c*.jsonl', 'Exit code 1\n(eval):1: no matches found'),
      ),
      assistant('', bash('ls -lh ~/.claude/projects/p/6f18*.jsonl', '-rw------- 1 user staff 2.5M x.jsonl')),
    ]);
    expect(h.openFailures).toEqual([]);
  });

  it('a failing test is not fixed by reading the file it names, nor by a narrower run passing', () => {
    const h = handover([
      user('fix the test'),
      assistant('', bash('npm test -- a.test.ts', 'Exit code 1\nFAIL a.test.ts')),
      assistant('', bash('cat a.test.ts', 'it("works")')),
      assistant('', bash('npm test -- b.test.ts', 'Tests 3 passed')),
    ]);
    expect(h.openFailures).toEqual([{ label: 'npm test -- a.test.ts', error: 'exit 1: FAIL a.test.ts' }]);
  });

  it('a search that found nothing is no failure; a pipeline that failed before its search is one', () => {
    const exec = (cmd: string, output: string) => tool('exec_command', { cmd, workdir: '/r' }, output);
    const h = handover([
      user('look around'),
      assistant('', exec('rg -n "compaction" node_modules/@x', 'Process exited with code 1\nOutput:\n')),
      assistant(
        '',
        exec(
          'ps -ef | rg -i chrome',
          'Process exited with code 1\nOutput:\nzsh:1: operation not permitted: ps',
        ),
      ),
    ]);
    expect(h.openFailures.map((f) => f.label)).toEqual(['ps -ef | rg -i chrome']);
  });

  it('a background command ends as its poll reports, across compactions too', () => {
    const exec = tool(
      'exec_command',
      { cmd: 'npm run build', workdir: '/r' },
      'Process running with session ID 98003\nOutput:\n',
    );
    const poll = (output: string) => tool('write_stdin', { session_id: 98003, chars: '' }, output);
    const first = handoverAndDetails({ span: entries([user('build it'), assistant('', exec)]) });
    expect(first.details.extra?.background).toEqual([['98003', 'npm run build']]);
    const second = buildHandover({
      span: entries([
        assistant('', poll('Process exited with code 2\nOutput:\nerror TS2304: Cannot find name x')),
      ]),
      previous: first.details,
    });
    expect(second.openFailures).toEqual([
      { label: 'npm run build', error: 'exit 2: error TS2304: Cannot find name x' },
    ]);
  });

  it('a success in the kept tail settles a failure of the summarized span', () => {
    const span = entries([user('fix it'), assistant('', bash('npm test', 'Exit code 1\nFAIL'))]);
    const tail = entries([assistant('', bash('npm test', 'Tests 9 passed'))], span.length);
    expect(buildHandover({ span }).openFailures).toHaveLength(1);
    expect(buildHandover({ span, tail }).openFailures).toEqual([]);
  });
});

describe('current task, pending work and next step', () => {
  const todo = (todos: Array<[string, string]>) =>
    tool(
      'TodoWrite',
      { todos: todos.map(([content, status]) => ({ content, status, activeForm: content })) },
      'ok',
    );

  it('the in-progress todo is the next step; pending todos are pending work', () => {
    const h = handover(
      [
        user('add retries'),
        assistant(
          '',
          todo([
            ['Write the retry test', 'completed'],
            ['Implement retries', 'in_progress'],
            ['Update docs', 'pending'],
          ]),
        ),
        assistant('Working on it.', bash('npm test', 'Tests 3 passed')),
      ],
      'add retries',
    );
    expect(h.nextStep).toEqual({ text: 'Implement retries', source: 'todo' });
    expect(h.pending).toEqual([
      { text: 'Implement retries', status: 'in_progress', source: 'TodoWrite' },
      { text: 'Update docs', status: 'pending', source: 'TodoWrite' },
    ]);
    expect(h.currentTask).toMatchObject({ request: 'add retries', done: ['ran `npm test` (ok)'] });
  });

  it('tracker items: bd create, update --status in_progress, close', () => {
    const h = handover([
      user('work the backlog'),
      assistant('', bash('bd create "Fix flaky login test" -p 1', '✓ Created issue: app-7f3\n')),
      assistant('', bash('bd create --title "Document retries"', 'Created issue: app-8a1')),
      assistant('', bash('bd update app-7f3 --status in_progress', 'Updated issue: app-7f3')),
      assistant(
        '',
        bash('gh issue create --title "Broken link" --body x', 'https://github.com/o/r/issues/42'),
      ),
      assistant('', bash('bd close app-8a1', 'Closed app-8a1')),
    ]);
    expect(h.pending).toEqual([
      { text: 'app-7f3: Fix flaky login test', status: 'in_progress', source: 'bd' },
      { text: '#42: Broken link', status: 'pending', source: 'gh issue' },
    ]);
    expect(h.nextStep).toEqual({ text: 'app-7f3: Fix flaky login test', source: 'tracker' });
    expect(h.keyValues.map((v) => v.value)).toContain('https://github.com/o/r/issues/42');
  });

  it("the agent's question or announced action closing its reply is the next step, not an opening it acted on", () => {
    const asked = handover([
      user('write the spec'),
      assistant('', tool('Write', { file_path: '/r/specs/x.md', content: '# Spec' }, 'ok')),
      assistant(
        'Let me fix that. ```ts\nconst a = 1;\n```\nThe spec is written. Ready to start with **Phase 1, Step 1.1**?',
      ),
    ]);
    expect(asked.nextStep).toEqual({ text: 'Ready to start with Phase 1, Step 1.1?', source: 'agent' });
    const announced = handover([
      user('prepare the demo'),
      assistant(
        'Here is the outline.\n\nPaste the screenshots when ready, and I’ll turn this into a script.',
      ),
    ]);
    expect(announced.nextStep?.source).toBe('agent');
    expect(announced.nextStep?.text).toMatch(/^Paste the screenshots/);
  });

  it('a plan the agent wrote: its "Next steps" list is pending work, its first item the next step', () => {
    const h = handover([
      user('review the spec'),
      assistant(
        'All done.\n\n### **Next Steps:**\n\n**Ready for Development:**\n1. Copy code to `src/x.ts`\n2. Run `npm test`\n\nGood luck!',
      ),
    ]);
    expect(h.pending.map((p) => p.text)).toEqual(['Copy code to `src/x.ts`', 'Run `npm test`']);
    expect(h.nextStep).toEqual({ text: 'Copy code to `src/x.ts`', source: 'plan' });
  });

  it('a span ending inside a turn continues the latest request; a notification is never the task or the next step', () => {
    const notification = {
      role: 'user' as const,
      parts: [
        { type: 'text' as const, text: '<task-notification>background task b1 finished</task-notification>' },
      ],
    };
    const h = handover(
      [
        user('refactor the parser'),
        notification,
        assistant('Now let me run the tests.', bash('npm test', 'Tests 3 passed')),
      ],
      'refactor the parser',
    );
    expect(h.currentTask?.request).toBe('refactor the parser');
    expect(h.nextStep).toEqual({ text: 'refactor the parser', source: 'request' });
    expect(h.requests.map((r) => r.text)).toEqual(['refactor the parser']);
  });
});

describe('files, commands and key values', () => {
  it('only real files, relative to the working directory, each call resolved from its own folder', () => {
    const exec = (cmd: string, workdir: string, output = 'ok') =>
      tool('exec_command', { cmd, workdir }, output);
    const first: Message = {
      role: 'user',
      parts: [{ type: 'text', text: 'tidy the repo' }],
      metadata: { cwd: '/Users/u/repo' },
    };
    const h = handover([
      first,
      assistant('', tool('Glob', { pattern: '**/*.ts', path: '/Users/u/repo/src' }, 'src/a.ts')),
      assistant('', tool('Grep', { pattern: 'x', path: '/Users/u/repo/src/lib' }, 'src/lib/b.ts')),
      assistant('', tool('Read', { file_path: '/Users/u/repo/src/lib/b.ts' }, '1→x')),
      assistant('', bash('ls -la ~/.claude/ && find ~/.codemie/metrics -name "*.json"', 'total 0')),
      assistant('', exec('sed -n 1,20p parser.ts', '/Users/u/repo/packages/core')),
      assistant(
        '',
        failedTool('Read', { file_path: '/Users/u/repo/src/missing.ts' }, 'File does not exist.'),
      ),
      assistant(
        '',
        tool('Edit', { file_path: '/Users/u/repo/src/lib/b.ts', old_string: 'x', new_string: 'y' }, 'ok'),
      ),
      assistant('', tool('Read', { file_path: '/Users/u/repo/Makefile' }, '1→all:')),
    ]);
    expect(h.cwd).toBe('/Users/u/repo');
    expect(h.files).toEqual({ modified: ['src/lib/b.ts'], read: ['packages/core/parser.ts', 'Makefile'] });
  });

  it('a directory change the transcript recorded moves where relative paths start, not what they are relative to', () => {
    const at = (text: string, cwd: string): Message => ({
      role: 'user',
      parts: [{ type: 'text', text }],
      metadata: { cwd },
    });
    const h = handover([
      at('look at the readme', '/Users/u/repo'),
      assistant('', bash('cat README.md', '# App')),
      at('now the package', '/Users/u/repo/packages/core'),
      assistant('', bash('cat src/index.ts', 'export {}')),
    ]);
    expect(h.cwd).toBe('/Users/u/repo');
    expect(h.files.read).toEqual(['README.md', 'packages/core/src/index.ts']);
  });

  it('commands listed only when they changed state, verified or failed; the rest counted', () => {
    const h = handover([
      user('ship it'),
      assistant('', bash('ls', 'a b')),
      assistant('', bash('git status --short', ' M a.ts')),
      assistant('', bash('cat a.ts | grep TODO', 'TODO: x')),
      assistant('', bash('npm run build', 'ok')),
      assistant('', bash('npm test', 'Tests 9 passed')),
      assistant('', bash('git commit -am "Ship"', '[main 8e1d04f] Ship')),
      assistant('', bash('git push', 'To github.com:o/r.git\n   3f9c2ab..8e1d04f  main -> main')),
    ]);
    expect(h.commands.map((c) => c.label)).toEqual([
      'npm run build',
      'npm test',
      'git commit -am "Ship"',
      'git push',
    ]);
    expect(h.otherCommands).toBe(3);
    // The newest call that printed a value names it.
    expect(h.keyValues).toContainEqual({ value: '8e1d04f', kind: 'commit', source: 'git push' });
  });

  it('key values: a PR URL, a port, an id in a short result; none from a long file read', () => {
    const fileContent = `${'line of code\n'.repeat(400)}https://docs.example.net/guide id: abcdef123456`;
    const h = handover([
      user('open a PR and start the server'),
      assistant('', bash('gh pr create --fill', 'https://github.com/acme/widgets/pull/4242\n')),
      assistant('', bash('npm run dev', 'VITE ready\n  ➜  Local:   http://localhost:5173/')),
      assistant('', bash('curl -X POST https://api.test/jobs', '{"id":"job_8fK2Lq9"}')),
      assistant('', tool('Read', { file_path: '/r/a.ts' }, fileContent)),
    ]);
    const values = h.keyValues.map((v) => [v.value, v.kind]);
    expect(values).toContainEqual(['https://github.com/acme/widgets/pull/4242', 'pr']);
    expect(values).toContainEqual(['5173', 'port']);
    expect(values).toContainEqual(['job_8fK2Lq9', 'id']);
    expect(values.flat()).not.toContain('abcdef123456');
  });
});

describe('requests, and what survives a compaction', () => {
  it('every request verbatim, line breaks included; capped at 2,000 characters', () => {
    const long = `start ${'word '.repeat(600)}end`;
    const h = handover([user('first line\nsecond line'), assistant('ok'), user(long)]);
    expect(h.requests[0]!.text).toBe('first line\nsecond line');
    expect(h.requests[1]!.text.length).toBeLessThanOrEqual(2_000);
    expect(long.startsWith(h.requests[1]!.text.slice(0, -1))).toBe(true);
  });

  it('the stored details give back the same handover; a later span merges into it', () => {
    const span = entries([
      user('Never push to main. Add the cache.'),
      assistant('', tool('Write', { file_path: 'src/cache.ts', content: 'x' }, 'ok')),
      assistant('', bash('npm test', 'Exit code 1\nFAIL cache')),
      assistant('', bash('gh pr create --fill', 'https://github.com/o/r/pull/7')),
    ]);
    const first = handoverAndDetails({ span, latestRequest: 'Never push to main. Add the cache.' });
    const again = buildHandover({ span: [], previous: first.details });
    for (const key of [
      'requests',
      'constraints',
      'openFailures',
      'commands',
      'keyValues',
      'files',
      'nextStep',
    ] as const)
      expect(again[key]).toEqual(first.handover[key]);
    const later = buildHandover({
      span: entries(
        [user('And document it'), assistant('', bash('npm test', 'Tests 4 passed'))],
        span.length,
      ),
      previous: first.details,
      latestRequest: 'And document it',
    });
    expect(later.requests.map((r) => r.text)).toEqual([
      'Never push to main. Add the cache.',
      'And document it',
    ]);
    expect(later.openFailures).toEqual([]);
    expect(later.commands.find((c) => c.label === 'npm test')?.status).toBe('fixed');
    expect(later.keyValues.map((v) => v.value)).toContain('https://github.com/o/r/pull/7');
    expect(later.constraints).toEqual(['Never push to main.']);
    expect(handoverDetails(later).lastUserRequest).toBe('And document it');
  });

  it('folders an earlier version listed as files are dropped when merged', () => {
    const h = buildHandover({
      span: [],
      previous: { filesRead: ['src', 'src/a.ts', '~/.claude', '~/.claude/history.jsonl'], filesModified: [] },
    });
    expect(h.files.read).toEqual(['src/a.ts', '~/.claude/history.jsonl']);
  });

  it('the facts of the history behind an imported compaction are read from it (`earlier`)', () => {
    const earlier = entries([
      user('the original task'),
      assistant('', tool('Read', { file_path: 'a.ts' }, 'x')),
    ]);
    const h = buildHandover({
      span: entries([user('continue')], earlier.length),
      previous: { filesRead: [], filesModified: [], extra: { trigger: 'auto' } },
      earlier,
      latestRequest: 'continue',
    });
    expect(h.requests.map((r) => r.text)).toEqual(['the original task', 'continue']);
    expect(h.files.read).toEqual(['a.ts']);
  });
});
