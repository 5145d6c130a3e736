import type { Entry, MessageEntry, PartsUpdate } from '../model/entry.js';
import { type Part, type ToolPart, withPlaceholderOutput } from '../model/parts.js';
import type { Estimator } from '../tokens/estimator.js';
import type { ResolvedPruneOptions } from './options.js';
import type { PrunePlan } from './plan.js';

/** A plan applied to entries it was not made from (an entry or part is missing or not a tool). */
export class StalePrunePlanError extends Error {
  override name = 'StalePrunePlanError';
}

/**
 * A finished tool part as the model sees it once pruned (opencode): output or error replaced
 * by the placeholder, attachments dropped. Also what 'erase' mode stores (Qwery).
 */
export function clearedToolPart(part: ToolPart, placeholder: string, compactedAt?: number): ToolPart {
  return withPlaceholderOutput({ ...part, compactedAt: compactedAt ?? part.compactedAt }, placeholder);
}

/**
 * Store updates that carry out a plan: one per touched entry, with the marked parts' `compactedAt`
 * set to `now` (and, in 'erase' mode, their stored output replaced). `partTokens` of a marked part
 * becomes the cost of its view (the placeholder), and `tokens` drops by the difference, so the
 * entry's figures keep meaning "what this entry costs in the context". Parts already marked are left
 * as they are, so applying the same plan twice changes nothing the second time.
 */
export function applyPrune(
  entries: readonly Entry[] | ReadonlyMap<string, Entry>,
  plan: PrunePlan,
  opts: ResolvedPruneOptions,
  now: number,
  estimator: Estimator,
): PartsUpdate[] {
  if (!plan.prune || plan.marks.length === 0) return [];
  // Given as a map, the marked entries alone (PruneScope.find): no pass over the window.
  const byId = 'get' in entries ? entries : new Map(entries.map((e) => [e.id, e]));
  const indexesByEntry = new Map<string, number[]>();
  for (const mark of plan.marks) {
    const list = indexesByEntry.get(mark.entryId) ?? [];
    list.push(mark.partIndex);
    indexesByEntry.set(mark.entryId, list);
  }

  const updates: PartsUpdate[] = [];
  for (const [entryId, indexes] of indexesByEntry) {
    const entry = byId.get(entryId);
    if (entry?.kind !== 'message') throw new StalePrunePlanError(`prune plan names unknown entry ${entryId}`);
    const update = pruneEntry(entry, new Set(indexes), opts, now, estimator);
    if (update) updates.push(update);
  }
  return updates;
}

function pruneEntry(
  entry: MessageEntry,
  indexes: ReadonlySet<number>,
  opts: ResolvedPruneOptions,
  now: number,
  estimator: Estimator,
): PartsUpdate | null {
  const parts: Part[] = [...entry.message.parts];
  const partTokens = [...entry.partTokens];
  let saved = 0;
  for (const i of indexes) {
    const part = parts[i];
    if (part?.type !== 'tool') {
      throw new StalePrunePlanError(`prune plan names part ${i} of ${entry.id}, which is not a tool part`);
    }
    if (part.compactedAt !== undefined) continue;
    const view = clearedToolPart(part, opts.placeholder, now);
    parts[i] = opts.mode === 'erase' ? view : { ...part, compactedAt: now };
    const before = partTokens[i] ?? 0;
    const after = estimator.part(view);
    partTokens[i] = after;
    saved += before - after;
  }
  if (parts.every((p, i) => p === entry.message.parts[i])) return null;
  return { entryId: entry.id, parts, partTokens, tokens: Math.max(0, entry.tokens - saved) };
}

/** Estimated tokens the updates remove from the view, for the session's running totals. */
export function prunedSavings(updates: readonly PartsUpdate[], entries: readonly Entry[]): number {
  const byId = new Map(entries.map((e) => [e.id, e]));
  let saved = 0;
  for (const u of updates) {
    const entry = byId.get(u.entryId);
    if (entry) saved += entry.tokens - u.tokens;
  }
  return saved;
}

/**
 * Entries with the updates applied (what a store holds after `updateParts`); pure, for callers and
 * tests. Newest first, stopping once every update found its entry: a late tool result touches one
 * of the last entries, and a copy of the list costs far less than a pass that looks at each.
 */
export function withUpdates(entries: readonly Entry[], updates: readonly PartsUpdate[]): Entry[] {
  const byId = new Map(updates.map((u) => [u.entryId, u]));
  const out = entries.slice();
  for (let i = out.length - 1, left = byId.size; i >= 0 && left > 0; i--) {
    const e = out[i]!;
    const u = byId.get(e.id);
    if (!u || e.kind !== 'message') continue;
    left--;
    const message = { ...e.message, parts: u.parts } as MessageEntry['message'];
    out[i] = { ...e, message, partTokens: u.partTokens, tokens: u.tokens };
  }
  return out;
}
