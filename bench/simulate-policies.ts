/**
 * The real Claude Code and Codex sessions replayed at their models' real windows through each
 * pruning/compaction policy (`condense simulate`), as the Markdown table of the README's "What a
 * session costs": cost per policy, cache-hit share between compactions, largest request, prunes.
 * Each cell is what
 *
 *   condense simulate <file> --window <window> --policy <policy> [--config <file>]
 *
 * prints. `npx tsx bench/simulate-policies.ts [config.json]`: with a configuration file, its
 * settings apply under every policy (e.g. other pruning thresholds).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { importFile } from '../src/import/index.js';
import type { ImportedSession } from '../src/import/types.js';
import { type PolicyName, type SimulationResult, simulate } from '../src/simulate/index.js';
import { lookupModel } from '../src/tokens/models.js';

const DATA = new URL('../../shared/data/agent-sessions/', import.meta.url).pathname;
const options = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : {};
const files = ['claude-code', 'codex'].flatMap((d) =>
  readdirSync(join(DATA, d))
    .sort()
    .map((f) => join(DATA, d, f)),
);

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const n = (v: number) => v.toLocaleString('en-US');
const usd = (r: SimulationResult) => (r.cost === null ? '—' : `$${r.cost.toFixed(3)}`);
const ORDER: PolicyName[] = ['none', 'every-turn', 'default'];

console.log(
  '| session | requests | `none` | `every-turn` | `default` | cache hits between compactions (`none`; `default`) | largest request (`none`; `default`) | prunes (`every-turn`; `default`) | compactions (`none`; `default`) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const file of files) {
  const session = (await importFile(file)) as ImportedSession;
  // A Codex session that names no model: the one its sibling of the same day and app ran.
  const model = session.messages.findLast((m) => m.model !== undefined)?.model ?? 'gpt-5.5';
  const window = lookupModel(model).contextWindow;
  const r = {} as Record<PolicyName, SimulationResult>;
  for (const policy of ORDER) r[policy] = await simulate(session, { window, policy, options, model });
  const { none, default: d } = r;
  const cheapest = Math.min(...ORDER.map((p) => r[p].cost ?? Number.POSITIVE_INFINITY));
  const cost = (p: PolicyName) =>
    r[p].cost === cheapest && ORDER.filter((q) => r[q].cost === cheapest).length === 1
      ? `**${usd(r[p])}**`
      : usd(r[p]);
  const id = basename(file).match(/[0-9a-f]{8}/)?.[0] ?? basename(file);
  const name = `${file.includes('/codex/') ? 'Codex' : 'Claude Code'} ${id}`;
  console.log(
    `| ${name} | ${d.requests - d.summaryCalls} | ${cost('none')} | ${cost('every-turn')} | ${cost('default')} | ${pct(none.cacheHitShareBetweenCompactions)}; ${pct(d.cacheHitShareBetweenCompactions)} | ${n(none.largestRequest)}; ${n(d.largestRequest)} | ${r['every-turn'].prunes}; ${d.prunes} | ${none.compactions}; ${d.compactions} |`,
  );
  const over = ORDER.filter((p) => r[p].requestsOverWindow > 0);
  if (over.length > 0) console.log(`<!-- requests over the ${n(window)} window under ${over.join(', ')} -->`);
}
