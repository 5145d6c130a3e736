import { summarizeExtractive } from './src/compact/extractive.js';
import { buildSummaryRequest } from './src/compact/input.js';
import { planCompaction } from './src/compact/plan.js';
import { assistant, entries, tool, user, estimator } from './test/compact/helpers.js';
for (const n of [10_000, 100_000]) {
  const msgs = [];
  for (let i = 0; i < n / 2; i++) {
    msgs.push(user(`Request ${i}: do the thing with file src/f${i % 500}.ts please. Never break the build.`));
    msgs.push(assistant(`ok ${i}`, tool('bash', { command: `cat src/f${i % 500}.ts` }, 'x'.repeat(200)), tool('Edit', { file_path: `src/g${i % 300}.ts` }, 'ok')));
  }
  const log = entries(msgs);
  for (const opts of [{}, { keepNone: true }]) {
    let t = performance.now();
    const plan = planCompaction(log, opts);
    if ('nothing' in plan) throw new Error();
    const t1 = performance.now();
    const req = buildSummaryRequest(plan);
    const t2 = performance.now();
    const r = summarizeExtractive(req, 4000, estimator);
    const t3 = performance.now();
    console.log(n, JSON.stringify(opts), 'plan', (t1 - t).toFixed(0), 'request', (t2 - t1).toFixed(0), 'extractive', (t3 - t2).toFixed(0), 'tokens', estimator.text(r.text));
  }
}
