/**
 * The real Claude Code and Codex sessions replayed at their models' real windows through each
 * pruning/compaction policy (`condense simulate`), as a Markdown table: cost, cache-hit share
 * between compactions, largest request, prunes and compactions. Each row is what
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
import { POLICIES, simulate } from '../src/simulate/index.js';
import { lookupModel } from '../src/tokens/models.js';

const DATA = new URL('../../shared/data/agent-sessions/', import.meta.url).pathname;
const options = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : {};
const files = ['claude-code', 'codex'].flatMap((d) =>
  readdirSync(join(DATA, d))
    .sort()
    .map((f) => join(DATA, d, f)),
);

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
console.log(
  '| session | window | policy | cost | cache hits between compactions | largest request | prunes | compactions |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const file of files) {
  const session = (await importFile(file)) as ImportedSession;
  // A Codex session that names no model: the one its sibling of the same day and app ran.
  const model = session.messages.findLast((m) => m.model !== undefined)?.model ?? 'gpt-5.5';
  const window = lookupModel(model).contextWindow;
  for (const policy of POLICIES) {
    const r = await simulate(session, { window, policy, options, model });
    const cost = r.cost === null ? '—' : `$${r.cost.toFixed(3)}`;
    const name = basename(file).slice(0, 24);
    console.log(
      `| ${name} | ${window.toLocaleString('en-US')} | ${policy} | ${cost} | ${pct(r.cacheHitShareBetweenCompactions)} | ${r.largestRequest.toLocaleString('en-US')} | ${r.prunes} | ${r.compactions} |`,
    );
  }
}
