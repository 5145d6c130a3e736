import { ConfigError } from '../model/errors.js';
import { MODEL_TABLE } from './model-table.js';

export interface ModelLimits {
  contextWindow: number;
  maxOutput?: number;
  /** A provider's own prompt limit, when it is below contextWindow − output (GPT-5: 272k). */
  inputLimit?: number;
}

export interface ResolvedModel extends ModelLimits {
  id: string;
  /** False when the window is the 128,000 fallback (seed 003): nothing told us the real one. */
  known: boolean;
}

/** Seed 003: unknown models fall back to 128,000. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

const builtIn = new Map<string, ModelLimits>();
for (const [ids, contextWindow, maxOutput, inputLimit] of MODEL_TABLE) {
  const limits: ModelLimits = { contextWindow };
  if (maxOutput !== undefined) limits.maxOutput = maxOutput;
  if (inputLimit !== undefined) limits.inputLimit = inputLimit;
  for (const id of ids) builtIn.set(id, limits);
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

/** Adds or replaces a model's limits for this process (e.g. a local model the table lacks). */
export function registerModel(id: string, limits: ModelLimits): void {
  checkLimits(id, limits);
  registered.set(id, { ...limits });
}

/**
 * Limits for a model id: exact match only (A003-08: no prefix guessing, so "gpt-4o-mini-tts" is
 * never taken for "gpt-4o-mini"), registered models over the built-in table, then the caller's
 * overrides over both. Unknown ids get the 128,000 fallback with `known: false`.
 */
export function lookupModel(id: string, overrides?: Record<string, Partial<ModelLimits>>): ResolvedModel {
  // A gateway id ('anthropic/claude-sonnet-4-5') names the same model as its last segment.
  const bare = id.slice(id.lastIndexOf('/') + 1);
  const base = registered.get(id) ?? builtIn.get(id) ?? registered.get(bare) ?? builtIn.get(bare);
  const override = overrides?.[id];
  if (override) checkLimits(id, override);
  const merged: Partial<ModelLimits> = { ...base, ...definedOnly(override) };
  const known = merged.contextWindow !== undefined;
  return { ...merged, id, contextWindow: merged.contextWindow ?? FALLBACK_CONTEXT_WINDOW, known };
}

/** Ids the built-in table and the registry know, for listings and the CLI. */
export function knownModelIds(): string[] {
  return [...new Set([...builtIn.keys(), ...registered.keys()])].sort();
}

function definedOnly(o: Partial<ModelLimits> | undefined): Partial<ModelLimits> {
  const out: Partial<ModelLimits> = {};
  if (!o) return out;
  if (o.contextWindow !== undefined) out.contextWindow = o.contextWindow;
  if (o.maxOutput !== undefined) out.maxOutput = o.maxOutput;
  if (o.inputLimit !== undefined) out.inputLimit = o.inputLimit;
  return out;
}
