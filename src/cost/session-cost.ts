import type { Entry } from '../model/entry.js';
import { reportedUsage } from '../model/reported-usage.js';
import { lookupModel, type ModelPrices } from '../tokens/models.js';
import { cacheRuleFor } from './caching.js';
import { addUsage, cacheHitShare, costOf, NO_USAGE, tokenPrices, type UsageTotals } from './price.js';

/** What a session's requests cost, from the usage each reply stored (`metadata.usage`). */
export interface SessionCost extends UsageTotals {
  model: string;
  /** US dollars per million tokens used; null when the catalog has no prices for the model. */
  prices: ModelPrices | null;
  /** US dollars; null without prices. */
  cost: number | null;
  /** Cache reads as a share of all prompt tokens. */
  cacheHitShare: number;
}

/**
 * Sums every request whose usage a reply kept, over the whole log (compacted history included:
 * it was paid for). `prices` overrides the catalog's (per million tokens).
 */
export function sessionCost(entries: readonly Entry[], model: string, prices?: ModelPrices): SessionCost {
  let totals = NO_USAGE;
  for (const entry of entries) {
    if (entry.kind !== 'message' || entry.message.role !== 'assistant') continue;
    const usage = reportedUsage(entry.message);
    if (usage) totals = addUsage(totals, usage);
  }
  return pricedTotals(totals, model, prices);
}

/** Request totals priced for `model` (the catalog's prices unless `prices` is given). */
export function pricedTotals(totals: UsageTotals, model: string, prices?: ModelPrices): SessionCost {
  const info = lookupModel(model);
  const used = prices ?? info.prices ?? null;
  const cost = used ? costOf(totals, tokenPrices(used, cacheRuleFor(info.provider, model))) : null;
  return { model, ...totals, prices: used, cost, cacheHitShare: cacheHitShare(totals) };
}

const n = (v: number) => v.toLocaleString('en-US');

export function formatSessionCost(id: string, c: SessionCost): string {
  const uncached = c.input - c.cacheRead - c.cacheWrite;
  const cost = c.cost === null ? `no price for model '${c.model}' in the catalog` : `$${c.cost.toFixed(4)}`;
  return [
    `session ${id}  model ${c.model}`,
    `requests ${n(c.requests)}`,
    `input ${n(c.input)} tokens: ${n(uncached)} uncached, ${n(c.cacheRead)} cache reads (${(c.cacheHitShare * 100).toFixed(1)}%), ${n(c.cacheWrite)} cache writes`,
    `output ${n(c.output)} tokens`,
    `cost ${cost}`,
  ].join('\n');
}
