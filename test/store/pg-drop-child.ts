/**
 * The load of postgres-drop.test.ts, in a process of its own so the test sees whether a dropped
 * connection ends it: `workers` sessions each append a user message, an assistant tool call and
 * its result (a parts rewrite) over and over, printing `ack <kind> <worker> <i>` after each write
 * the store acknowledged and `error <name> <message>` for each that failed, until "stop" arrives
 * on stdin; then one last write per session, and `done`.
 * Args: URL (with a unique application_name, so the test can end its connections), schema,
 * `own` (the store makes its pool) or `pool` (the app passes one, with its own listener).
 */
import pg from 'pg';
import { openSession } from '../../src/index.js';
import { postgresStore } from '../../src/postgres.js';

const [url, schema, mode, workers = '4'] = process.argv.slice(2) as [string, string, string, string?];
let pool: pg.Pool | undefined;
if (mode === 'pool') {
  pool = new pg.Pool({ connectionString: url });
  pool.on('error', (error) => console.log(`pool-error ${error.message}`));
}
const store = postgresStore({ ...(pool ? { pool } : { connectionString: url }), schema });
let stopping = false;
process.stdin.setEncoding('utf8').on('data', (s: string) => {
  if (s.includes('stop')) stopping = true;
});

async function attempt(kind: string, w: number, i: number, write: () => Promise<unknown>) {
  try {
    await write();
    console.log(`ack ${kind} ${w} ${i}`);
  } catch (error) {
    console.log(`error ${(error as Error).name} ${(error as Error).message.replaceAll('\n', ' ')}`);
  }
}

async function worker(w: number) {
  const session = await openSession(store, `drop-${w}`);
  for (let i = 0; !stopping; i++) {
    const call = `call-${w}-${i}`;
    await attempt('user', w, i, () => session.append({ role: 'user', content: `w${w} m${i}` }));
    await attempt('call', w, i, () =>
      session.append({
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: call, toolName: 'read_file', input: { i } }],
      }),
    );
    await attempt('result', w, i, () =>
      session.append({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: call,
            toolName: 'read_file',
            output: { type: 'text', value: `r${w} ${i}` },
          },
        ],
      }),
    );
  }
  await attempt('user', w, -1, () => session.append({ role: 'user', content: `w${w} last` }));
}

await Promise.all(Array.from({ length: Number(workers) }, (_, w) => worker(w)));
await store.close();
await pool?.end();
console.log('done');
process.stdin.destroy();
