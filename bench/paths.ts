/**
 * The paths around the core turn, in-process: the AI SDK middleware per call (first call on an
 * existing history, then steady calls), a whole compaction cycle turn by turn, and compaction with
 * the summarizer's own share.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { condenseMiddleware } from '../src/ai-sdk.js';
import { renderContext } from '../src/context/index.js';
import { syntheticSession } from '../src/demo/synthetic.js';
import { toV3Prompt } from '../src/integrations/ai-sdk/prompt-out.js';
import { buildMessageEntry } from '../src/model/build.js';
import type { Entry } from '../src/model/entry.js';
import { openSession } from '../src/session/index.js';
import { memoryStore } from '../src/store/index.js';
import { heuristicEstimator } from '../src/tokens/estimator.js';
import { median, type Sessions, type StoreKind, type TurnRow } from './turns.js';

/** An app's history of `size` synthetic messages as the middleware receives it (V3 prompt). */
function v3History(size: number): LanguageModelV3Prompt {
  const estimator = heuristicEstimator();
  const entries: Entry[] = [];
  let seq = 0;
  for (const message of syntheticSession({ messages: size, seed: 1 })) {
    const parentId = seq === 0 ? null : `h-${seq - 1}`;
    entries.push(buildMessageEntry(message, { sessionId: 'h', seq, parentId, id: `h-${seq}` }, estimator));
    seq++;
  }
  return toV3Prompt(undefined, renderContext(entries, { format: 'ai-sdk' }) as ModelMessage[]);
}

function answeringModel(): LanguageModelV3 {
  let n = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: `answer ${++n}` }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1_000, noCache: 1_000, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 10, text: 10, reasoning: 0 },
      },
      warnings: [],
    }),
  });
}

/** A middleware on a store of its own, over the same settings every row uses. */
function benchMiddleware() {
  return condenseMiddleware({
    store: memoryStore(),
    sessionId: 'app',
    model: 'bench',
    limits: { contextWindow: 0 },
    budget: { maxRequestBytes: 0 },
    prune: false,
  });
}

/**
 * The middleware on an app history of `size` messages: the first call (it takes the whole
 * history in), then the median of `steady` calls that each add the answer and one user message.
 * The first call is the median over `firsts` middlewares, each new with an empty store (one
 * sample of a call that takes a whole history in is at the mercy of one garbage collection).
 * The window is as large as the history (no request-size limit either), so neither compaction
 * nor pruning is measured.
 */
export async function middlewareCalls(size: number, steady: number, firsts = 1): Promise<TurnRow[]> {
  const model = answeringModel();
  const history = v3History(size);
  const call = async (middleware: ReturnType<typeof benchMiddleware>, prompt: LanguageModelV3Prompt) => {
    const params: LanguageModelV3CallOptions = { prompt: prompt.slice() };
    const t0 = performance.now();
    const result = await middleware.wrapGenerate!({
      params,
      model,
      doGenerate: () => model.doGenerate(params),
      doStream: () => model.doStream(params),
    });
    const micros = (performance.now() - t0) * 1000;
    const text = result.content.find((c) => c.type === 'text');
    prompt.push({
      role: 'assistant',
      content: [{ type: 'text', text: text?.type === 'text' ? text.text : '' }],
    });
    prompt.push({ role: 'user', content: [{ type: 'text', text: `go on (${prompt.length})` }] });
    return micros;
  };
  const firstCalls: number[] = [];
  for (let i = 1; i < firsts; i++) firstCalls.push(await call(benchMiddleware(), history.slice()));
  // The last one goes on with the steady calls.
  const middleware = benchMiddleware();
  firstCalls.push(await call(middleware, history));
  const times: number[] = [];
  for (let i = 0; i < steady; i++) times.push(await call(middleware, history));
  const row = (name: string, medianMicros: number) => ({
    name,
    store: 'memory' as const,
    size,
    medianMicros,
  });
  return [
    row('AI SDK middleware: first call on an existing history', median(firstCalls)),
    row('AI SDK middleware: steady call', median(times)),
  ];
}

const REAL = { model: 'claude-sonnet-4-5' } as const;
const steps = [...syntheticSession({ messages: 2_000, seed: 7 })].filter((m) => m.role === 'assistant');

export interface CycleRow {
  store: StoreKind;
  turns: number;
  pruneTurns: number;
  medianMicros: number;
  meanMicros: number;
  p99Micros: number;
  maxMicros: number;
}

/**
 * Every turn (append a step, prepare()) from just after one automatic compaction to just before
 * the next, on a 200k-token window: prune turns included, the compacting turns not (their cost is
 * the compaction rows').
 */
export async function compactionCycle(sessions: Sessions, kind: StoreKind): Promise<CycleRow> {
  const store = await sessions.store(kind, 0);
  const session = await openSession(store, 'cycle', REAL);
  await session.append([{ role: 'user', parts: [{ type: 'text', text: 'Work through the repository.' }] }]);
  const times: number[] = [];
  let compactions = 0;
  let pruneTurns = 0;
  for (let i = 0; compactions < 2 && i < 20_000; i++) {
    // Where an agent awaits its model: the event loop idles (the store's deferred work runs here).
    await new Promise((resolve) => setImmediate(resolve));
    const t0 = performance.now();
    // A new request every few steps, as an agent's user gives them: older turns become prunable.
    if (i % 6 === 5)
      await session.append([{ role: 'user', parts: [{ type: 'text', text: `Next: step ${i}.` }] }]);
    await session.recordStep({ message: steps[i % steps.length]! });
    const prepared = await session.prepare({ format: 'openai' });
    const micros = (performance.now() - t0) * 1000;
    if (prepared.compaction !== null) compactions++;
    else if (compactions === 1) {
      times.push(micros);
      if (prepared.pruned !== null && prepared.pruned.parts > 0) pruneTurns++;
    }
  }
  await store.close();
  const sorted = [...times].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    store: kind,
    turns: times.length,
    pruneTurns,
    medianMicros: median(times),
    meanMicros: round(times.reduce((a, b) => a + b, 0) / times.length),
    p99Micros: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!),
    maxMicros: round(sorted.at(-1)!),
  };
}

const CHILD = fileURLToPath(new URL('./compaction-child.ts', import.meta.url));

/**
 * The first compaction of a never-compacted window of `size` messages, from opening the session,
 * and how much of it the extractive summarizer took: `runs` of them in a process of their own
 * (bench/compaction-child.ts), as a user's process opens and compacts a session. In the bench's
 * own process the rows before (a 100,000-message session held in memory) leave a heap that V8
 * lets grow to 1.7 GB before collecting it, and the first SQLite runs after them took twice as long.
 */
export async function compactionSplit(
  sessions: Sessions,
  kind: StoreKind,
  size: number,
  runs: number,
): Promise<TurnRow[]> {
  const template = kind === 'sqlite' ? [await sessions.template(size)] : [];
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', CHILD, kind, String(size), String(runs), ...template],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
  );
  const { totals, summaries } = JSON.parse(out.trim().split('\n').at(-1)!) as {
    totals: number[];
    summaries: number[];
  };
  return [
    { name: 'open + first compaction (extractive)', store: kind, size, medianMicros: median(totals) },
    { name: '… of which the extractive summary', store: kind, size, medianMicros: median(summaries) },
  ];
}
