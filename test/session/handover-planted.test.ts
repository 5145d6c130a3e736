/**
 * An identifier that appears only in a successful tool output (the URL of the pull request the
 * agent opened, the hash of its commit, the id of a job it created) survives 8 compactions: the
 * handover carries it in the pivot's details and shows it in its "Key values" section.
 */
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../src/model/message.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

let seq = 0;
const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const call = (command: string, output: string, text = ''): AssistantMessage => ({
  role: 'assistant',
  parts: [
    ...(text ? [{ type: 'text' as const, text }] : []),
    { type: 'tool', callId: `c${++seq}`, name: 'Bash', input: { command }, state: 'completed', output },
  ],
});
const read = (path: string, lines: number): AssistantMessage => ({
  role: 'assistant',
  parts: [
    {
      type: 'tool',
      callId: `c${++seq}`,
      name: 'Read',
      input: { file_path: path },
      state: 'completed',
      output: Array.from({ length: lines }, (_, i) => `${i + 1}→export const v${i} = ${i};`).join('\n'),
    },
  ],
});

const PR = 'https://github.com/acme/widgets/pull/4242';
const COMMIT = '9c1e5ab';
const JOB = 'job_8fK2Lq9Wz';

/** A turn of ordinary work: a request, reads of large files, a test run, a reply. */
function work(n: number): Message[] {
  return [
    user(`Task ${n}: review module m${n} and keep its tests green.`),
    read(`src/m${n}/index.ts`, 300),
    read(`src/m${n}/helpers.ts`, 300),
    call(`npm test -- m${n}`, `Tests ${n + 3} passed`),
    {
      role: 'assistant',
      parts: [{ type: 'text', text: `Module m${n} reviewed; ${'notes on it. '.repeat(40)}` }],
    },
  ];
}

describe('a value only a tool printed survives repeated compactions', () => {
  it('a PR URL, a commit hash and a job id stay in the summary after each of 8 compactions', async () => {
    const session = await openSession(memoryStore(), 'planted', {});
    await session.append([
      user('Commit the cache work, open a PR and start the nightly job.'),
      call('git commit -am "Add the cache"', `[feat/cache ${COMMIT}] Add the cache\n 3 files changed`),
      call(
        'gh pr create --fill',
        `\nCreating pull request for feat/cache into main in acme/widgets\n\n${PR}\n`,
      ),
      call(
        'curl -s -X POST https://ci.acme.test/api/jobs -d \'{"name":"nightly"}\'',
        `{"id":"${JOB}","state":"queued"}`,
      ),
      {
        role: 'assistant',
        parts: [{ type: 'text', text: 'Done: committed, PR opened, nightly job queued.' }],
      },
      ...work(0),
    ]);
    for (let round = 1; round <= 8; round++) {
      await session.append(work(round));
      const outcome = await session.compact();
      expect(outcome.status, `round ${round}`).toBe('compacted');
      if (outcome.status !== 'compacted') return;
      for (const value of [PR, COMMIT, JOB]) {
        expect(outcome.summary, `${value} after ${round} compaction(s)`).toContain(value);
        const carried = outcome.pivot.pivot.details.extra?.keyValues as string[][];
        expect(carried.some(([v]) => v === value)).toBe(true);
      }
    }
    // Only what tools printed: the request's words and the reads' contents are no key values.
    const last = (await session.history()).findLast((e) => e.kind === 'compaction');
    const values = (last?.kind === 'compaction' ? last.pivot.details.extra?.keyValues : []) as string[][];
    expect(values.map(([v]) => v).sort()).toEqual([COMMIT, JOB, PR].sort());
  });
});
