/**
 * The process the JSONL crash tests kill. `rotate DIR`: opens session `s` (seed 003 preset) and
 * compacts it once, which rotates current.jsonl into an archive. `loop DIR`: appends turns and
 * compacts every third one until killed. `create DIR`: creates five sessions in one batch. Every persistence step is printed (`step NAME`) and
 * every finished write is printed with the ids it stored (`committed ID…`); with
 * CONDENSE_KILL_AT=N the process SIGKILLs itself at its N-th step (0-based).
 */
import { openSession, presetOptions } from '../../src/session/index.js';
import { openJsonlStore } from '../../src/store/jsonl.js';
import { BATCH, batchSession } from './jsonl-crash-batch.js';

const [mode, dir] = process.argv.slice(2);
if (dir === undefined || !['rotate', 'loop', 'create'].includes(mode ?? ''))
  throw new Error('usage: rotate|loop|create DIR');
const killAt = process.env.CONDENSE_KILL_AT === undefined ? -1 : Number(process.env.CONDENSE_KILL_AT);
let steps = 0;
const out = (line: string) => process.stdout.write(`${line}\n`);

const store = openJsonlStore({ dir }, (name) => {
  out(`step ${name}`);
  if (steps++ === killAt) process.kill(process.pid, 'SIGKILL');
});
if (mode === 'create') {
  await store.createSessions(BATCH.map((id) => batchSession(id)));
  out(`committed ${BATCH.join(' ')}`);
  process.exit(0);
}
const session = await openSession(store, 's', { ...presetOptions('seed-003'), model: 'gpt-4o' });

if (mode === 'rotate') {
  const outcome = await session.compact();
  out(`committed ${outcome.status === 'compacted' ? outcome.pivot.id : 'nothing'}`);
} else {
  for (let i = 1; ; i++) {
    const turn = session.record.nextSeq;
    const written = await session.append([
      {
        role: 'user',
        parts: [{ type: 'text', text: `turn ${turn}: remember the code word w${turn}. ${filler(turn)}` }],
      },
      { role: 'assistant', parts: [{ type: 'text', text: `Noted w${turn}. ${filler(turn + 1)}` }] },
    ]);
    out(`committed ${written.map((e) => e.id).join(' ')}`);
    if (i % 3 === 0) {
      const outcome = await session.compact();
      if (outcome.status === 'compacted') out(`committed ${outcome.pivot.id}`);
    }
  }
}
await store.close();

function filler(n: number): string {
  return `Some words about the task, part ${n}. `.repeat(40);
}
