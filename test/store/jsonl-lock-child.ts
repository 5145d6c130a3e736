/**
 * A JSONL writer in a process of its own (jsonl-lock.test.ts): appends five messages to session
 * `s` of the store in DIR, prints `ready`, and holds the session until "stop" arrives on stdin;
 * then appends one more, closes the store and prints `done`. Killed before that, it leaves its
 * lock behind, as a crashed writer would.
 */
import { openSession } from '../../src/index.js';
import { jsonlStore } from '../../src/store/jsonl.js';

const [dir] = process.argv.slice(2) as [string];
const store = jsonlStore({ dir, fsync: false });
const session = await openSession(store, 's');
for (let i = 0; i < 5; i++) await session.append({ role: 'user', content: `first ${i}` });
console.log('ready');
process.stdin.setEncoding('utf8').on('data', async (s: string) => {
  if (!s.includes('stop')) return;
  await session.append({ role: 'user', content: 'first after' });
  await store.close();
  console.log('done');
  process.stdin.destroy();
});
