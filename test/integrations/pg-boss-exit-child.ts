/**
 * pg-boss-exit.test.ts's child: starts a pgBossQueue that works jobs with a summarizer, closes it
 * (`idle`: at once; `busy`: while a summary is being written), prints `closed`, and must then
 * exit by itself: nothing of the queue may keep it alive.
 * Args: URL, pg-boss schema, idle | busy.
 */
import { extractiveSummarizer } from '../../src/index.js';
import { pgBossQueue } from '../../src/pg-boss.js';
import { EMPTY_JOB } from './pg-boss-job.js';

const [url, schema, mode] = process.argv.slice(2) as [string, string, string];
const extractive = extractiveSummarizer();
let started: () => void = () => {};
const running = new Promise<void>((resolve) => {
  started = resolve;
});
// A summary that takes a minute unless the queue gives it up.
const slow = {
  name: 'slow',
  summarize: (request: Parameters<typeof extractive.summarize>[0], signal?: AbortSignal) => {
    started();
    return new Promise<never>((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('not given up')), 60_000);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }).then(() => extractive.summarize(request));
  },
};
const queue = await pgBossQueue({
  connectionString: url,
  schema,
  summarizer: mode === 'busy' ? slow : extractive,
});
if (mode === 'busy') {
  await queue.submit(EMPTY_JOB);
  await running;
}
await queue.close();
console.log('closed');
