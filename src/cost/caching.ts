/**
 * How a provider caches prompt prefixes, for pricing and for the cost policy. Prices per token
 * come from the model catalog; these are the rules the catalog does not carry.
 */
export interface CacheRule {
  provider: 'anthropic' | 'openai' | 'google' | 'other';
  /**
   * 'explicit': only prefixes ending at a `cache_control` breakpoint are written (Anthropic);
   * 'automatic': every prompt's prefix is cached by the provider (OpenAI, Gemini's implicit cache).
   */
  kind: 'explicit' | 'automatic';
  /** How long an unused cache entry lives (Anthropic's default 5 minutes; OpenAI: 5–10 minutes idle). */
  ttlMs: number;
  /** Shortest prefix the provider caches. */
  minTokens: number;
  /** Cached prefixes grow in steps of this many tokens past `minTokens` (OpenAI: 128). */
  step: number;
  /** Anthropic looks for an earlier cache entry at most this many blocks before a breakpoint. */
  lookbackBlocks: number;
  /** Price multipliers of the input price when the catalog has no cache prices. */
  readShare: number;
  writeShare: number;
  /** Most breakpoints a request may carry (Anthropic: 4). */
  maxBreakpoints: number;
}

const MINUTE = 60_000;

const RULES: Record<CacheRule['provider'], CacheRule> = {
  // Reads 0.1x, 5-minute writes 1.25x (1-hour writes 2x); up to 4 breakpoints, 20-block lookback.
  anthropic: {
    provider: 'anthropic',
    kind: 'explicit',
    ttlMs: 5 * MINUTE,
    minTokens: 1024,
    step: 1,
    lookbackBlocks: 20,
    readShare: 0.1,
    writeShare: 1.25,
    maxBreakpoints: 4,
  },
  // Automatic from 1,024 tokens in 128-token steps; writes cost nothing extra.
  openai: {
    provider: 'openai',
    kind: 'automatic',
    ttlMs: 5 * MINUTE,
    minTokens: 1024,
    step: 128,
    lookbackBlocks: Number.POSITIVE_INFINITY,
    readShare: 0.1,
    writeShare: 1,
    maxBreakpoints: 0,
  },
  // Implicit caching (Gemini 2.5 and later): automatic, no write charge.
  google: {
    provider: 'google',
    kind: 'automatic',
    ttlMs: 5 * MINUTE,
    minTokens: 1024,
    step: 1,
    lookbackBlocks: Number.POSITIVE_INFINITY,
    readShare: 0.25,
    writeShare: 1,
    maxBreakpoints: 0,
  },
  // Unknown providers: priced as if nothing were cached unless they report cache reads.
  other: {
    provider: 'other',
    kind: 'automatic',
    ttlMs: 5 * MINUTE,
    minTokens: 1024,
    step: 1,
    lookbackBlocks: Number.POSITIVE_INFINITY,
    readShare: 1,
    writeShare: 1,
    maxBreakpoints: 0,
  },
};

/** The caching rule of a catalog provider (or of a model id's usual provider). */
export function cacheRuleFor(provider: string | undefined, model = ''): CacheRule {
  const p = provider ?? '';
  if (p === 'anthropic' || /claude/i.test(model)) return RULES.anthropic;
  if (p === 'openai' || /^(gpt|o\d|codex)/i.test(model)) return RULES.openai;
  if (p === 'google' || /gemini/i.test(model)) return RULES.google;
  return RULES.other;
}

/**
 * The rule with another cache lifetime (`cache.ttlMinutes`): Anthropic's 1-hour breakpoints,
 * OpenAI's extended retention (`prompt_cache_retention: '24h'`).
 */
export function withTtl(rule: CacheRule, minutes: number | undefined): CacheRule {
  return minutes === undefined ? rule : { ...rule, ttlMs: minutes * MINUTE };
}

/** How long Anthropic keeps an entry unless a breakpoint asks for its 1-hour one. */
const ANTHROPIC_SHORT_TTL = 5 * MINUTE;

/** Anthropic writes entries that live past 5 minutes (its 1-hour ones) at twice the input price. */
export function longWrites(rule: CacheRule): boolean {
  return rule.provider === 'anthropic' && rule.ttlMs > ANTHROPIC_SHORT_TTL;
}

/** The lifetime Anthropic breakpoints ask for with `cache.ttlMinutes`: the hour past 5 minutes, priced by longWrites. */
export function anthropicTtl(minutes: number | undefined): '1h' | undefined {
  return minutes !== undefined && minutes * MINUTE > ANTHROPIC_SHORT_TTL ? '1h' : undefined;
}
