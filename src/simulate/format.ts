import type { SimulationResult } from './replay.js';

const n = (v: number) => v.toLocaleString('en-US');
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

export function formatSimulation(file: string, r: SimulationResult): string {
  const uncached = r.input - r.cacheRead - r.cacheWrite;
  const cost = r.cost === null ? `no price for model '${r.model}' in the catalog` : `$${r.cost.toFixed(4)}`;
  return [
    `${file}  model ${r.model}  window ${n(r.window)}  policy ${r.policy}  (${r.format} requests)`,
    `requests ${n(r.requests)} (${n(r.summaryCalls)} summary calls)  compactions ${n(r.compactions)}  prunes ${n(r.prunes)}`,
    `input ${n(r.input)} tokens: ${n(uncached)} uncached, ${n(r.cacheRead)} cache reads, ${n(r.cacheWrite)} cache writes`,
    `cache-hit share ${pct(r.cacheHitShare)} (${pct(r.cacheHitShareBetweenCompactions)} between compactions)`,
    `largest request ${n(r.largestRequest)} tokens${r.requestsOverWindow > 0 ? `: ${n(r.requestsOverWindow)} requests over the window` : ', none over the window'}`,
    `output ${n(r.output)} tokens`,
    `cost ${cost}`,
    `(${n(r.overheadTokens)} tokens of system prompt and tools the transcript does not hold are counted in every request)`,
  ].join('\n');
}
