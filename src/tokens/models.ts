import { ConfigError } from '../model/errors.js';
import { type CatalogRow, MAKERS, MODEL_CATALOG } from './model-catalog.js';
import { MODEL_OVERRIDES } from './model-overrides.js';

export interface ModelLimits {
  contextWindow: number;
  maxOutput?: number;
  /** A provider's own prompt limit, when it is below contextWindow − output (GPT-5: 272k). */
  inputLimit?: number;
}

/** A model's list prices in US dollars per million tokens (from the catalog). */
export interface ModelPrices {
  input: number;
  output: number;
  /** Prompt tokens read from the provider's cache. */
  cacheRead?: number;
  /** Prompt tokens written to the provider's cache. */
  cacheWrite?: number;
}

/** Where a model's limits came from: the fallback is the one that deserves a warning. */
export type ModelSource = 'registered' | 'override' | 'catalog' | 'fallback';

export interface ResolvedModel extends ModelLimits {
  id: string;
  /** False when the window is the 128,000 fallback (Pegasus): nothing told us the real one. */
  known: boolean;
  source: ModelSource;
  /** The catalog provider whose entry was used ('anthropic', 'openrouter', …). */
  provider?: string;
  prices?: ModelPrices;
}

/** Pegasus: unknown models fall back to 128,000. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

const overrides = new Map<string, ModelLimits>();
for (const [ids, contextWindow, maxOutput, inputLimit] of MODEL_OVERRIDES) {
  for (const id of ids) overrides.set(id, definedOnly({ contextWindow, maxOutput, inputLimit }));
}

const registered = new Map<string, ModelLimits>();

function checkLimits(id: string, limits: Partial<ModelLimits>): void {
  for (const key of ['contextWindow', 'maxOutput', 'inputLimit'] as const) {
    const v = limits[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) {
      throw new ConfigError(`model "${id}": ${key} must be a non-negative integer, got ${v}`);
    }
  }
}

/** Adds or replaces a model's limits for this process (e.g. a local model the catalog lacks). */
export function registerModel(id: string, limits: ModelLimits): void {
  checkLimits(id, limits);
  registered.set(id, { ...limits });
}

interface Found {
  limits: ModelLimits;
  source: Exclude<ModelSource, 'fallback'>;
  provider?: string;
  prices?: ModelPrices;
}

function fromRow(row: CatalogRow, provider: string): Found {
  const [context, output, input, priceIn, priceOut, cacheRead, cacheWrite] = row;
  const found: Found = {
    limits: definedOnly({
      contextWindow: context,
      maxOutput: output ?? undefined,
      inputLimit: input ?? undefined,
    }),
    source: 'catalog',
    provider,
  };
  if (priceIn !== null && priceOut !== null) {
    found.prices = { input: priceIn, output: priceOut };
    if (cacheRead !== null) found.prices.cacheRead = cacheRead;
    if (cacheWrite !== null) found.prices.cacheWrite = cacheWrite;
  }
  return found;
}

const MAKER_SET = new Set(MAKERS);

/**
 * The catalog entry for an exact id: its maker's when it has one; else, among the hosts that serve
 * it, the window most of them give (a few hosts cap a model far below its own window), the earlier
 * in catalog order on a tie.
 */
function inCatalog(id: string): Found | undefined {
  const hosts: [string, CatalogRow][] = [];
  for (const [provider, models] of Object.entries(MODEL_CATALOG)) {
    const row = models[id];
    if (!row) continue;
    if (MAKER_SET.has(provider)) return fromRow(row, provider);
    hosts.push([provider, row]);
  }
  const votes = new Map<number, number>();
  for (const [, row] of hosts) votes.set(row[0], (votes.get(row[0]) ?? 0) + 1);
  const best = Math.max(...votes.values());
  const chosen = hosts.find(([, row]) => votes.get(row[0]) === best);
  return chosen && fromRow(chosen[1], chosen[0]);
}

/**
 * One id, exactly as written (no prefix guessing, so "gpt-4o-mini-tts" is never taken for
 * "gpt-4o-mini"): registered, then the override table, then a provider-prefixed id
 * ('anthropic/claude-opus-4-6', 'openrouter/anthropic/claude-sonnet-4.5'), then the catalog's own ids
 * (gateway ids like 'anthropic/claude-sonnet-4' are ids of the gateways' entries).
 */
function findExact(id: string): Found | undefined {
  const reg = registered.get(id);
  if (reg) return { limits: reg, source: 'registered' };
  const over = overrides.get(id);
  // A corrected window keeps the catalog's prices.
  if (over) return { ...inCatalog(id), limits: over, source: 'override' };
  const slash = id.indexOf('/');
  if (slash > 0) {
    const provider = id.slice(0, slash);
    const row = MODEL_CATALOG[provider]?.[id.slice(slash + 1)];
    if (row) return fromRow(row, provider);
  }
  return inCatalog(id);
}

/**
 * Other spellings of the same model, tried in turn when the id as written is unknown: the last
 * segment of a prefixed id ('acme-gateway/claude-opus-4-6'), a dated snapshot's base id
 * ('gpt-4o-2024-08-06', 'claude-3-opus-20240229', 'gemini-1.5-pro-002'), Claude with dots
 * ('claude-sonnet-4.5'). Never a shorter name: 'gpt-4o-mini-tts' is not 'gpt-4o-mini'.
 */
function spellings(id: string): string[] {
  const out = [id];
  const add = (v: string) => {
    if (!out.includes(v)) out.push(v);
  };
  add(id.slice(id.lastIndexOf('/') + 1));
  for (const v of [...out]) {
    const undated = v.replace(/-(\d{4}-\d{2}-\d{2}|20\d{6}|0\d\d|latest)$/, '');
    add(undated);
    if (v.startsWith('claude-')) add(v.replace(/(\d)\.(\d)/g, '$1-$2'));
  }
  return out;
}

/**
 * Limits and prices for a model id (see `spellings` for the forms tried), then the caller's
 * overrides over the result. Unknown ids get the 128,000 fallback with `known: false` and
 * `source: 'fallback'`.
 */
export function lookupModel(id: string, overridesById?: Record<string, Partial<ModelLimits>>): ResolvedModel {
  let found: Found | undefined;
  for (const spelling of spellings(id)) {
    found = findExact(spelling);
    if (found) break;
  }
  const override = overridesById?.[id];
  if (override) checkLimits(id, override);
  const merged: Partial<ModelLimits> = { ...found?.limits, ...definedOnly(override ?? {}) };
  const known = merged.contextWindow !== undefined;
  const out: ResolvedModel = {
    ...merged,
    id,
    contextWindow: merged.contextWindow ?? FALLBACK_CONTEXT_WINDOW,
    known,
    source: found?.source ?? (known ? 'override' : 'fallback'),
  };
  if (found?.provider) out.provider = found.provider;
  if (found?.prices) out.prices = { ...found.prices };
  return out;
}

/**
 * Limits from a table of one's own instead of the catalog (Pegasus's model table): a registered
 * model, else the id exactly as the table writes it, else the 128,000 fallback.
 */
export function lookupInTable(id: string, table: Readonly<Record<string, ModelLimits>>): ResolvedModel {
  const reg = registered.get(id);
  const row = reg ?? (Object.hasOwn(table, id) ? table[id] : undefined);
  if (!row) return { id, contextWindow: FALLBACK_CONTEXT_WINDOW, known: false, source: 'fallback' };
  return { ...definedOnly(row), id, known: true, source: reg ? 'registered' : 'override' };
}

/** What to tell the user when a model's window is the fallback. */
export function fallbackWindowMessage(id: string, contextWindow = FALLBACK_CONTEXT_WINDOW): string {
  const what = id === 'unknown' ? 'no model was given' : `model '${id}' is not in the model catalog`;
  return (
    `${what}: assuming a ${contextWindow.toLocaleString('en-US')}-token window. ` +
    `Give the real one with limits: { contextWindow } (--context-window on the command line; ` +
    `for Ollama, the num_ctx the model runs with)`
  );
}

/** Prices of a model per million tokens, when the catalog has them. */
export function modelPrices(id: string): ModelPrices | undefined {
  return lookupModel(id).prices;
}

/** Ids the override table and the registry know, and the catalog's by provider-prefixed id. */
export function knownModelIds(): string[] {
  const catalog = Object.entries(MODEL_CATALOG).flatMap(([p, models]) =>
    Object.keys(models).map((m) => `${p}/${m}`),
  );
  return [...new Set([...overrides.keys(), ...registered.keys(), ...catalog])].sort();
}

function definedOnly(o: Partial<ModelLimits>): ModelLimits {
  const out: Partial<ModelLimits> = {};
  if (o.contextWindow !== undefined) out.contextWindow = o.contextWindow;
  if (o.maxOutput !== undefined) out.maxOutput = o.maxOutput;
  if (o.inputLimit !== undefined) out.inputLimit = o.inputLimit;
  return out as ModelLimits;
}
