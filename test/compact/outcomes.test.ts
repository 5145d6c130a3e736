import { describe, expect, it } from 'vitest';
import { errorLines } from '../../src/compact/error-lines.js';
import { OutcomeTracker } from '../../src/compact/outcomes.js';
import { openFailures } from '../../src/compact/span.js';
import type { ToolPart } from '../../src/model/parts.js';
import { failedTool, tool } from './helpers.js';

const bash = (command: string, output: string) => tool('Bash', { command }, output);

function outcomesOf(parts: ToolPart[], carried: string[] = []) {
  const t = new OutcomeTracker();
  for (const c of carried) t.carry(c);
  parts.forEach((p, i) => {
    t.note(p, i);
  });
  return t.outcomes();
}

/** What a Codex exec session prints around a test run that fails, setup noise first. */
const VITEST_FAILURE = `Chunk ID: 922caa
Wall time: 0.0000 seconds
Process exited with code 1
Original token count: 332
Output:
(node:36706) Warning: The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set.
(Use \`node --trace-warnings ...\` to show where the warning was created)
 ❯ src/plugin.test.ts (16 tests | 1 failed | 15 skipped) 1316ms
       × sets default context compaction threshold to 90% 1312ms
⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯
AssertionError: expected undefined to deeply equal { auto: true, prune: true, …(1) }
 ❯ src/plugin.test.ts:253:33`;

describe('commands with their final outcome', () => {
  it('a push that failed, then succeeded with the remote named, is fixed', () => {
    const o = outcomesOf([
      bash('git push', 'Exit code 128\nfatal: The current branch feat/x has no upstream branch.'),
      bash('git push -u origin feat/x', 'branch set up to track origin/feat/x'),
    ]);
    expect(o.map((x) => [x.label, x.status])).toEqual([
      ['git push', 'fixed'],
      ['git push -u origin feat/x', 'ok'],
    ]);
    expect(o[0]!.fixedBy).toBe('git push -u origin feat/x');
    expect(openFailures(o)).toEqual([]);
  });

  it('a narrower run passing does not fix a broader failure', () => {
    const o = outcomesOf([
      bash('npm test -- a.test.ts', 'Exit code 1\nFAIL a.test.ts'),
      bash('npm test -- b.test.ts', 'Tests 3 passed'),
    ]);
    expect(openFailures(o)).toEqual(['npm test -- a.test.ts → exit 1: FAIL a.test.ts']);
  });

  it('a failure shows the error that made it fail, not the setup noise printed first', () => {
    expect(errorLines(VITEST_FAILURE)).toEqual([
      'AssertionError: expected undefined to deeply equal { auto: true, prune: true, …(1) }',
      '❯ src/plugin.test.ts (16 tests | 1 failed | 15 skipped) 1316ms',
      '× sets default context compaction threshold to 90% 1312ms',
    ]);
  });

  it('a background process ends as its poll reports, and the outcome is the command’s', () => {
    const exec = (cmd: string, id: number) =>
      tool(
        'exec_command',
        { cmd, workdir: '/r' },
        `Chunk ID: a\nProcess running with session ID ${id}\nOutput:\n`,
      );
    const poll = (id: number, output: string) => tool('write_stdin', { session_id: id, chars: '' }, output);
    const test = 'npm test -- --run src/plugin.test.ts';
    const failing = outcomesOf([
      exec(test, 7),
      poll(7, 'Process running with session ID 7\n RUN v4'),
      poll(7, VITEST_FAILURE),
    ]);
    expect(failing.map((x) => x.label)).toEqual([test]);
    expect(openFailures(failing)[0]).toMatch(
      /^npm test -- --run src\/plugin\.test\.ts → exit 1: AssertionError/,
    );
    const fixed = outcomesOf([
      exec(test, 7),
      poll(7, VITEST_FAILURE),
      exec(test, 8),
      poll(8, 'Process exited with code 0\nTests 16 passed'),
    ]);
    expect(fixed.map((x) => x.status)).toEqual(['fixed']);
  });

  it('an edit that failed is settled by a later edit of the same file; carried failures too', () => {
    const o = outcomesOf([
      failedTool('Edit', { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' }, 'old_string not found'),
      tool('Edit', { file_path: 'src/a.ts', old_string: 'z', new_string: 'y' }, 'ok'),
    ]);
    expect(o.map((x) => [x.label, x.status])).toEqual([['Edit src/a.ts', 'fixed']]);
    const carried = outcomesOf(
      [bash('make', 'ok')],
      ['make → exit 2: No rule to make target', 'lint → exit 1'],
    );
    expect(openFailures(carried)).toEqual(['lint → exit 1']);
  });
});
