/**
 * One writer of the concurrency test and benchmark, in a process of its own:
 *   node --import tsx bench/workers/worker.ts <store spec> <WorkerConfig as JSON>
 * Opens every shared session, prints `ready`, waits for a line on stdin, then appends its messages
 * round-robin across the sessions (each tagged `w<worker>#<n>` so the check can find it), and runs
 * prepare() — which prunes, and compacts a window over the limit with a summarizer that takes as
 * long as a model call — every `prepareEvery` appends. Every fourth message is a step with a
 * running tool call, whose result is recorded after the worker's next append: parts of a stored
 * entry replaced while other workers append, prune and compact. Every error is caught and reported,
 * never retried here: what reaches this code is what would reach an agent. Prints one JSON line.
 */
import { llmSummarizer } from '../../src/compact/index.js';
import type { Message } from '../../src/model/message.js';
import { openSession, type Session } from '../../src/session/index.js';
import { conflictCounting } from './conflicts.js';
import { summaryModel, type WorkerConfig, type WorkerReport } from './protocol.js';
import { openStore } from './stores.js';

const [spec, json] = process.argv.slice(2);
if (spec === undefined || json === undefined) throw new Error('usage: worker.ts <store spec> <config json>');
const config = JSON.parse(json) as WorkerConfig;
const report: WorkerReport = {
  worker: config.worker,
  startedAt: 0,
  endedAt: 0,
  latenciesMicros: [],
  errors: [],
  failed: [],
  detected: [],
  dropped: 0,
  compacted: 0,
  conflicts: 0,
};
const fail = (error: unknown) => {
  report.errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
};

const { store, conflicts } = conflictCounting(await openStore(spec));
const summarizer = llmSummarizer({ model: summaryModel(config.worker, config.summarizeMillis) });
const options = {
  model: 'bench-model',
  limits: { contextWindow: config.contextWindow, maxOutput: 1_000 },
  prune: { protectTokens: 1_500, minimumTokens: 300, protectTurns: 1 },
  compaction: { summarizer },
};
const sessions: Session[] = [];
for (const id of config.sessions) {
  const session = await openSession(store, id, options);
  // Which window this worker found over the limit: the pivot its compaction would follow.
  session.on('compaction:start', () =>
    report.detected.push({ session: id, previousPivotId: session.log.record.state.pivotId }),
  );
  sessions.push(session);
}
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.destroy();

const filler = ' Some words about the task at hand, as an agent would write them.'.repeat(
  config.fillerRepeat,
);
report.startedAt = Date.now();
// Calls whose tool "runs" while this worker appends its next message; then the result comes.
const running: { session: Session; callId: string }[] = [];
for (let n = 0; n < config.appends; n++) {
  const session = sessions[n % sessions.length]!;
  const { message, callId } = messageFor(n);
  const t0 = performance.now();
  try {
    await session.append(message);
    report.latenciesMicros.push(Math.round((performance.now() - t0) * 1000));
  } catch (error) {
    fail(error);
    report.failed.push(n);
  }
  for (const call of running.splice(0))
    await call.session
      .recordToolResult(call.callId, { output: `output of ${call.callId}.${filler}` })
      .catch(fail);
  if (callId && !report.failed.includes(n)) running.push({ session, callId });
  if ((n + 1) % config.prepareEvery === 0) await prepare(session);
}
report.endedAt = Date.now();
report.conflicts = conflicts();
await store.close();
process.stdout.write(`${JSON.stringify(report)}\n`);

/** Message n: user and assistant text by turns, and every fourth a step with a running tool call. */
function messageFor(n: number): { message: Message; callId?: string } {
  const text = { type: 'text' as const, text: `w${config.worker}#${n}${filler}` };
  if (n % 4 === 3) {
    const callId = `w${config.worker}c${n}`;
    const call = {
      type: 'tool' as const,
      callId,
      name: 'read_file',
      input: { n },
      state: 'running' as const,
    };
    return { message: { role: 'assistant', parts: [text, call] }, callId };
  }
  const role = Math.floor(n / sessions.length) % 2 === 0 ? 'user' : 'assistant';
  return { message: { role, parts: [text] } as Message };
}

async function prepare(session: Session): Promise<void> {
  try {
    const prepared = await session.prepare({ format: 'openai' });
    if (prepared.compactionError) fail(prepared.compactionError);
    if (prepared.compaction?.status === 'compacted') report.compacted++;
    else if (prepared.compaction?.status === 'skipped') report.dropped++;
  } catch (error) {
    fail(error);
  }
}
