/**
 * The stall at the hard threshold: a simulated agent loop (prepare → model call → recordStep)
 * over a generated coding session, with a summarizer that takes `summaryMillis` ± `jitterMillis`
 * like a model call, run once with the summary written on the agent's path and once with
 * background compaction. What is measured is how long prepare() blocks on the turns that compact.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Summarizer } from '../src/compact/index.js';
import { rng, syntheticSession } from '../src/demo/synthetic.js';
import { openSession } from '../src/session/index.js';
import { memoryStore } from '../src/store/index.js';

export interface StallOptions {
  /** Compactions measured per mode. */
  compactions: number;
  summaryMillis: number;
  jitterMillis: number;
  /** The simulated model call of each step. */
  stepMillis: number;
  /** Each mode stops after this long even if fewer compactions were measured (keeps the run bounded). */
  maxSeconds: number;
}

export interface StallRow {
  mode: 'inline' | 'background';
  compactions: number;
  medianMillis: number;
  p99Millis: number;
  /** Median prepare() of the turns that did not compact. */
  turnMedianMillis: number;
  applied: number;
  /** Of the applied ones, how many the turn still had to wait for (the summary was not ready). */
  waited: number;
  discarded: number;
  summarizerCalls: number;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A summarizer that answers like a model: after a jittered delay, ~1,500 tokens of text, no CPU work. */
function slowSummarizer(opts: StallOptions, seed: number): Summarizer & { calls: number } {
  const random = rng(seed);
  const s = {
    name: 'simulated-llm',
    calls: 0,
    async summarize(request: Parameters<Summarizer['summarize']>[0]) {
      s.calls += 1;
      await sleep(opts.summaryMillis + (random() * 2 - 1) * opts.jitterMillis);
      const text = `Summary of ${request.plan.toSummarize.length} messages. ${'The agent fixed things. '.repeat(250)}`;
      return { text, details: { filesRead: [], filesModified: [] } };
    },
  };
  return s;
}

async function run(mode: StallRow['mode'], opts: StallOptions): Promise<StallRow> {
  const summarizer = slowSummarizer(opts, 7);
  const session = await openSession(memoryStore(), `stall-${mode}`, {
    model: 'bench-model',
    // A 40,000-token window: compaction at 32,000 (0.8), the background summary from 19,200 (0.6 of that).
    limits: { contextWindow: 40_000, maxOutput: 4_000 },
    prune: false,
    compaction: { summarizer },
    background: mode === 'background' ? { soft: 0.6 } : false,
  });
  let applied = 0;
  let waited = 0;
  let discarded = 0;
  session.on('background:applied', (e) => {
    applied += 1;
    if (e.waitedMillis > 1) waited += 1;
  });
  session.on('background:discarded', () => {
    discarded += 1;
  });
  const stalls: number[] = [];
  const turns: number[] = [];
  const step = rng(11);
  const deadline = performance.now() + opts.maxSeconds * 1000;
  for (const message of syntheticSession({ seed: 5, messages: 1_000_000 })) {
    if (stalls.length >= opts.compactions || performance.now() > deadline) break;
    if (message.role !== 'assistant') {
      await session.append(message);
      continue;
    }
    const t0 = performance.now();
    const prepared = await session.prepare();
    const millis = performance.now() - t0;
    (prepared.compaction?.status === 'compacted' ? stalls : turns).push(millis);
    // The model call: what the background summary runs beside.
    await sleep(opts.stepMillis * (0.8 + 0.4 * step()));
    await session.recordStep({
      message,
      usage: { prompt_tokens: prepared.tokens.tokens, completion_tokens: 40 },
    });
  }
  return {
    mode,
    compactions: stalls.length,
    medianMillis: percentile(stalls, 50),
    p99Millis: percentile(stalls, 99),
    turnMedianMillis: percentile(turns, 50),
    applied,
    waited,
    discarded,
    summarizerCalls: summarizer.calls,
  };
}

export async function stallBench(opts: StallOptions): Promise<StallRow[]> {
  return [await run('inline', opts), await run('background', opts)];
}

export function stallTable(rows: StallRow[], opts: StallOptions): string {
  const ms = (n: number) => (n >= 10 ? `${Math.round(n)} ms` : `${n.toFixed(1)} ms`);
  const lines = [
    `| summarizer ${opts.summaryMillis} ± ${opts.jitterMillis} ms, model call ${opts.stepMillis} ms ± 20% | compactions | prepare() at the hard threshold: median | p99 | other turns: median | prepared summaries applied (waited for) / discarded | summarizer calls |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    const name =
      r.mode === 'inline' ? 'summary written on the agent path' : 'background compaction (soft 0.6)';
    const bg = r.mode === 'inline' ? '—' : `${r.applied} (${r.waited}) / ${r.discarded}`;
    lines.push(
      `| ${name} | ${r.compactions} | ${ms(r.medianMillis)} | ${ms(r.p99Millis)} | ${ms(r.turnMedianMillis)} | ${bg} | ${r.summarizerCalls} |`,
    );
  }
  return lines.join('\n');
}
