import { ConfigError } from '../model/errors.js';

/** When auto compaction triggers. Every limit is in provider tokens; any enabled limit may trigger. */
export interface BudgetConfig {
  /** The model's context window. 0 means unlimited: never compact automatically. */
  contextWindow: number;
  /** The model's maximum output; 0 or absent means unknown, so `outputCap` is reserved instead. */
  maxOutput?: number;
  /** A provider prompt limit; 0 or absent means use the window formula (opencode). */
  inputLimit?: number;
  /** Most output ever reserved out of the window (opencode `globalOutputCap`). Default 32,000. */
  outputCap?: number;
  /** Whether the seed-001 usable budget is a limit. Default true; Nexus, Pegasus and Mistral Vibe turn it off. */
  usableLimit?: boolean;
  /** Fraction of the window (Pegasus). Default 0.8; 0 turns this limit off (see `thresholdZero`). */
  threshold?: number;
  /**
   * What a threshold of 0 means: 'off' (default), or 'limit': a limit of 0 tokens, so any context
   * triggers (Pegasus has no off switch: estimatedTokens > contextWindow × 0).
   */
  thresholdZero?: 'off' | 'limit';
  /** Absolute token limit (Mistral Vibe). 0 or absent: off. */
  absolute?: number;
  /** Compact above window − reserve (Nexus: 20,000). 0 or absent: off. */
  reserve?: number;
  /** Auto compaction at all (opencode `compaction.auto`). Default true. */
  auto?: boolean;
  /** Strict '>' (Qwery, opencode, Nexus and Pegasus, default) or '>=' (Mistral Vibe). */
  comparison?: '>' | '>=';
  /**
   * Most bytes a request may hold (providers cap request size; images are few tokens but many
   * bytes): above it the session compacts, and fails naming the largest message if that is not
   * enough. Default 32 MiB; 0 turns it off.
   */
  maxRequestBytes?: number;
}

export const DEFAULT_MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export type LimitKind = 'usable' | 'threshold' | 'absolute' | 'reserve';

export interface ResolvedBudget {
  readonly resolved: true;
  contextWindow: number;
  /** opencode's usable budget (null when the window is unlimited), reported even when not a limit. */
  usable: number | null;
  /** Every enabled limit, by kind. */
  limits: Partial<Record<LimitKind, number>>;
  /** The smallest enabled limit: the one that triggers first. Null: nothing can trigger. */
  limit: number | null;
  limitKind: LimitKind | null;
  /** Why nothing can trigger: auto off or no limit enabled ('disabled'), or window 0 ('unlimited'). */
  off: 'disabled' | 'unlimited' | null;
  comparison: '>' | '>=';
  /** The byte limit of a request, null when off. */
  requestBytes: number | null;
  config: Readonly<BudgetConfig>;
}

export const DEFAULT_OUTPUT_CAP = 32_000;
export const DEFAULT_THRESHOLD = 0.8;

/**
 * opencode's usable budget: inputLimit ?? contextWindow − min(maxOutput, outputCap), with these
 * zero rules: window 0 ⇒ null (unlimited), checked first even with an input limit; maxOutput 0
 * or absent ⇒ the cap; inputLimit 0 or absent ⇒ the formula.
 */
export function usableBudget(cfg: BudgetConfig): number | null {
  if (!cfg.contextWindow) return null;
  if (cfg.inputLimit) return cfg.inputLimit;
  const cap = cfg.outputCap ?? DEFAULT_OUTPUT_CAP;
  // A model whose output limit nobody gave (a local model in a 16k window): reserving the whole
  // cap would leave little or nothing for the prompt, so a quarter of the window is held back.
  const unknownOut = cap * 2 > cfg.contextWindow ? Math.min(cap, Math.floor(cfg.contextWindow / 4)) : cap;
  const reserveOut = cfg.maxOutput ? Math.min(cfg.maxOutput, cap) : unknownOut;
  return cfg.contextWindow - reserveOut;
}

function count(name: string, v: number | undefined): void {
  if (v !== undefined && (!Number.isFinite(v) || v < 0)) {
    throw new ConfigError(`budget: ${name} must be a non-negative number of tokens, got ${v}`);
  }
}

/** Validates a budget and computes its limits; impossible configurations throw ConfigError. */
export function resolveBudget(cfg: BudgetConfig): ResolvedBudget {
  count('contextWindow', cfg.contextWindow);
  count('maxOutput', cfg.maxOutput);
  count('inputLimit', cfg.inputLimit);
  count('outputCap', cfg.outputCap);
  count('reserve', cfg.reserve);
  if (cfg.absolute !== undefined && (!Number.isFinite(cfg.absolute) || cfg.absolute < 0)) {
    throw new ConfigError(`budget: absolute threshold must be ≥ 0 (0 turns it off), got ${cfg.absolute}`);
  }
  const threshold = cfg.threshold ?? DEFAULT_THRESHOLD;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new ConfigError(
      `budget: threshold is a fraction of the window in [0, 1] (0 turns it off), got ${threshold}`,
    );
  }
  const window = cfg.contextWindow;
  const comparison = cfg.comparison ?? '>';
  const usable = usableBudget(cfg);
  const bytes = cfg.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  if (!Number.isFinite(bytes) || bytes < 0)
    throw new ConfigError(`budget: maxRequestBytes must be a non-negative number of bytes, got ${bytes}`);
  const base = {
    resolved: true as const,
    contextWindow: window,
    usable,
    comparison,
    requestBytes: bytes === 0 ? null : bytes,
    config: { ...cfg },
  };
  if (!window) {
    return {
      ...base,
      limits: {},
      limit: null,
      limitKind: null,
      off: cfg.auto === false ? 'disabled' : 'unlimited',
    };
  }

  if (cfg.inputLimit && cfg.inputLimit > window) {
    throw new ConfigError(`budget: inputLimit ${cfg.inputLimit} exceeds the context window ${window}`);
  }
  const limits: Partial<Record<LimitKind, number>> = {};
  if (cfg.usableLimit ?? true) {
    if (usable === null || usable <= 0) {
      throw new ConfigError(
        `budget: usable budget is ${usable} (window ${window} − reserved output ${window - (usable ?? 0)}); every step would overflow: give the model's maxOutput, or a larger window`,
      );
    }
    limits.usable = usable;
  }
  // Rounded so that 0.85 × 200,000 is 170,000, not 169,999.99999999997.
  if (threshold > 0 || cfg.thresholdZero === 'limit')
    limits.threshold = Math.round(threshold * window * 1e6) / 1e6;
  if (cfg.absolute) limits.absolute = cfg.absolute;
  if (cfg.reserve) {
    if (window <= cfg.reserve) {
      throw new ConfigError(`budget: window ${window} ≤ reserve ${cfg.reserve}; every turn would compact`);
    }
    limits.reserve = window - cfg.reserve;
  }
  let limit: number | null = null;
  let limitKind: LimitKind | null = null;
  for (const kind of ['usable', 'threshold', 'absolute', 'reserve'] as const) {
    const v = limits[kind];
    if (v !== undefined && (limit === null || v < limit)) {
      limit = v;
      limitKind = kind;
    }
  }
  const off = cfg.auto === false || limit === null ? 'disabled' : null;
  return { ...base, limits, limit, limitKind, off };
}

/**
 * The limit a compaction shrinks the context under: the trigger limit, unless that is 0 (a
 * threshold of 0 under `thresholdZero: 'limit'` triggers on any context, and no summary fits in
 * 0 tokens): then the usable budget, else the window.
 */
export function compactionLimit(budget: ResolvedBudget): number | null {
  if (budget.limit !== 0) return budget.limit;
  return budget.usable ?? budget.contextWindow;
}
