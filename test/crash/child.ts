/**
 * The process the crash tests kill: `child.js KIND PLACE OP FIRST CYCLES INPUTS` opens the store
 * (crash/stores.ts) at PLACE through the recorder, runs cycles FIRST… of the operation
 * (crash/ops.ts) and prints `cycle I` after each, `end` when all ran. See recorder.ts for the
 * lines it prints and for CRASH_KILL.
 */
import type { Session } from '../../src/session/index.js';
import { openSession } from '../../src/session/index.js';
import { OPS, type OpName, SESSION } from './ops.js';
import { killSwitch, out, recorder } from './recorder.js';
import { crashStore } from './stores.js';

const [kind, place, opName, first, cycles, inputs] = process.argv.slice(2);
if (inputs === undefined) throw new Error('usage: KIND PLACE OP FIRST CYCLES INPUTS');
const op = OPS[opName as OpName];
const rec = recorder(killSwitch());
const store = rec.wrap(await crashStore(kind!).open(place!, rec.step));
// A store that migrates on first use (Postgres) does it now, in the open phase.
await store.listSessions();
let session: Promise<Session> | undefined;
const opened = () => (session ??= openSession(store, SESSION, op.options));
for (let i = Number(first); i < Number(first) + Number(cycles); i++) {
  await op.cycle({ store, session: opened, i, inputs, phase: rec.phase });
  out(`cycle ${i}`);
}
await store.close();
out('end');
